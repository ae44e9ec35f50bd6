import { useRef, useState, type FormEvent } from 'react';
import { useUpdateField, type CustomField } from '../../api/custom-fields';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { FormAlert } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';

/** One row of a drop-down's options as edited: `id` for an option the field has (renamed in place), none for a new one. */
export type OptionDraft = { key: number; id?: string; label: string };

let nextKey = 0;
export const draftsOf = (options: { id: string; label: string }[]): OptionDraft[] =>
  options.map((o) => ({ key: ++nextKey, id: o.id, label: o.label }));

/** What the form can say before asking the server: empty labels and the same label twice (without case). */
export function optionProblems(drafts: OptionDraft[]): string[] {
  const labels = drafts.map((d) => d.label.trim());
  const problems: string[] = [];
  if (labels.some((l) => !l)) problems.push('Every option needs a label (remove the empty ones).');
  const seen = new Set<string>();
  for (const label of labels.filter(Boolean)) {
    if (seen.has(label.toLowerCase())) problems.push(`The option “${label}” is listed twice.`);
    seen.add(label.toLowerCase());
  }
  return problems;
}

/** The options as the API takes them: `{ id, label }` for a kept or renamed option, a label alone for a new one. */
export const optionsBody = (drafts: OptionDraft[]) => drafts.map((d) => (d.id ? { id: d.id, label: d.label.trim() } : d.label.trim()));

/** A list of option labels to rename, remove and add to; a new row takes the focus. */
export function OptionsEditor({ drafts, onChange }: { drafts: OptionDraft[]; onChange: (drafts: OptionDraft[]) => void }) {
  const list = useRef<HTMLOListElement>(null);
  const add = () => {
    onChange([...drafts, { key: ++nextKey, label: '' }]);
    requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus());
  };
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-zinc-900">Options</legend>
      {drafts.length === 0 && <p className="text-sm text-zinc-500">No options yet.</p>}
      <ol ref={list} className="space-y-2">
        {drafts.map((draft, i) => (
          <li key={draft.key} className="flex items-end gap-2">
            <TextField
              label={`Option ${i + 1}`}
              className="flex-1"
              autoComplete="off"
              maxLength={100}
              value={draft.label}
              onChange={(e) => onChange(drafts.map((d) => (d.key === draft.key ? { ...d, label: e.target.value } : d)))}
            />
            <Button
              size="sm"
              variant="danger-ghost"
              aria-label={`Remove option ${draft.label.trim() || i + 1}`}
              onClick={() => onChange(drafts.filter((d) => d.key !== draft.key))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <Button size="sm" onClick={add}>
        Add option
      </Button>
    </fieldset>
  );
}

/** A drop-down's options: rename (contacts holding one follow), remove (not while contacts hold it), add. */
export function OptionsDialog({ field, onClose }: { field: CustomField | null; onClose: () => void }) {
  return field ? <OptionsForm key={field.id} field={field} onClose={onClose} /> : null;
}

function OptionsForm({ field, onClose }: { field: CustomField; onClose: () => void }) {
  const update = useUpdateField();
  const { announce } = useStatus();
  const [drafts, setDrafts] = useState(() => draftsOf(field.options));
  const [problems, setProblems] = useState<string[]>([]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = optionProblems(drafts);
    setProblems(local);
    if (local.length) return;
    try {
      await update.mutateAsync({ id: field.id, options: optionsBody(drafts) });
      announce(`Options of ${field.name} saved`);
      onClose();
    } catch (error) {
      setProblems([errorMessage(error)]);
    }
  };

  return (
    <FormDialog
      title={`Options of ${field.name}`}
      description="A renamed option is renamed on every contact holding it. An option contacts hold cannot be removed until they hold another value."
      size="md"
      submitLabel="Save options"
      busy={update.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The options were not saved." messages={problems} />
      <OptionsEditor drafts={drafts} onChange={setDrafts} />
    </FormDialog>
  );
}
