import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { savedMappingsQueryOptions, useDeleteMapping, useSaveMapping, type ImportColumn, type SavedMappingRecord } from '../../api/imports';
import { Button } from '../../components/ui/button';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { Dialog } from '../../components/ui/dialog';
import { InlineSelect, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { FormAlert } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { fromSaved, toSaved, type MappingFormValues } from './mapping-schema';

type Props = { columns: ImportColumn[]; form: UseFormReturn<MappingFormValues> };

/** Rendered outside the mapping's own form: a form inside a form would submit both. */
export function SaveMappingDialog({ columns, form, onClose }: Props & { onClose: () => void }) {
  const save = useSaveMapping();
  const { announce } = useStatus();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Name the mapping, e.g. “Trade show list”.');
    save.mutate(
      { name: trimmed, mapping: toSaved(form.getValues(), columns) },
      {
        onSuccess: () => {
          announce(`Mapping “${trimmed}” saved`);
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog title="Save this mapping" submitLabel="Save mapping" busy={save.isPending} onClose={onClose} onSubmit={submit}>
      <p className="text-sm text-zinc-600">A saved mapping fills in the fields of a later file whose columns have the same names.</p>
      <FormAlert title="The mapping was not saved." messages={save.isError ? [errorMessage(save.error)] : []} />
      <TextField
        label="Mapping name"
        autoComplete="off"
        maxLength={100}
        value={name}
        error={error}
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
        }}
      />
    </FormDialog>
  );
}

/**
 * "Use a saved mapping" (fills the fields of the columns it names), "Saved mappings…" (lists them, each can be
 * deleted after a confirmation) and "Save mapping" (asks for a name).
 */
export function SavedMappings({ columns, form, onSave }: Props & { onSave: () => void }) {
  const saved = useQuery(savedMappingsQueryOptions());
  const { announce } = useStatus();
  const mappings = saved.data ?? [];
  const [managing, setManaging] = useState(false);
  const [deleting, setDeleting] = useState<SavedMappingRecord | null>(null);
  const remove = useDeleteMapping();

  const use = (id: string) => {
    const chosen = mappings.find((m) => String(m.id) === id);
    if (!chosen) return;
    form.reset(fromSaved(chosen.mapping, columns, form.getValues()), { keepSubmitCount: true, keepIsSubmitted: true });
    announce(`Mapping “${chosen.name}” applied`, 'info');
  };

  return (
    <>
      {mappings.length > 0 && (
        <>
          <InlineSelect
            label="Use a saved mapping"
            options={[{ value: '', label: 'Choose…' }, ...mappings.map((m) => ({ value: String(m.id), label: m.name }))]}
            value=""
            onChange={(e) => use(e.target.value)}
          />
          <Button size="sm" variant="ghost" onClick={() => setManaging(true)}>
            Saved mappings…
          </Button>
        </>
      )}
      <Button size="sm" onClick={onSave}>
        Save mapping
      </Button>
      <Dialog
        open={managing && deleting === null}
        onClose={() => setManaging(false)}
        title="Saved mappings"
        description="Each fills in the fields of a file whose columns have the same names. Deleting one changes no import."
        size="sm"
        footer={<Button onClick={() => setManaging(false)}>Close</Button>}
      >
        {mappings.length === 0 ? (
          <p className="text-sm text-zinc-600">No saved mappings left.</p>
        ) : (
          <ul className="divide-y divide-zinc-200" aria-label="Saved mappings">
            {mappings.map((m) => (
              <li key={m.id} className="flex items-center justify-between gap-3 py-2">
                <span className="min-w-0 truncate text-sm" title={m.name}>
                  {m.name}
                </span>
                <Button size="sm" variant="danger-ghost" aria-label={`Delete the mapping “${m.name}”`} onClick={() => setDeleting(m)}>
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
      <DeleteDialog
        item={deleting}
        remove={remove}
        idOf={(m) => m.id}
        title={(m) => `Delete the mapping “${m.name}”?`}
        confirmLabel="Delete mapping"
        deleted={(m) => `Mapping “${m.name}” deleted`}
        onClose={() => setDeleting(null)}
      >
        <p>It is no longer offered for later files. Imports made with it stay as they are.</p>
      </DeleteDialog>
    </>
  );
}
