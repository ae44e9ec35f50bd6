import { useEffect, useState, type FormEvent } from 'react';
import type { ContactCustomFieldValueRecord } from '../../../server/contracts/custom-fields';
import { useCustomValue } from '../../api/contact-details';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { SelectField, TextField } from '../../components/ui/field';
import { useStatus } from '../../components/ui/status-message';
import { ApiError, errorMessage } from '../../lib/api-client';

const NEW_OPTION = '\u0000new';

type Props = { contactId: string; field: ContactCustomFieldValueRecord; options: { id: string; label: string }[] };

/** "value must be a date YYYY-MM-DD." → "Renewal date must be a date YYYY-MM-DD." */
function reasonFor(error: unknown, name: string): string | undefined {
  if (!error || (error instanceof ApiError && error.status === 401)) return undefined;
  const text = errorMessage(error);
  return text.startsWith('value ') ? `${name} ${text.slice('value '.length)}` : text;
}

/** One custom field of the contact, edited with the control its type calls for; saved on its own. */
export function CustomValueRow({ contactId, field, options }: Props) {
  const name = field.display_name;
  const type = Number(field.type_id);
  const saved = field.value ?? '';
  const mutation = useCustomValue(contactId);
  const { announce } = useStatus();
  const [draft, setDraft] = useState(saved);
  const [newOption, setNewOption] = useState('');
  /* A saved value (this row's, or one read again) becomes what the control shows. */
  useEffect(() => {
    setDraft(saved);
    setNewOption('');
  }, [saved]);
  const value = draft === NEW_OPTION ? newOption.trim() : draft.trim();
  const changed = value !== saved && !(draft === NEW_OPTION && !value);
  const error = reasonFor(mutation.error, name);

  const save = (next: string | null) =>
    mutation.mutate(
      { fieldId: field.custom_field_id, value: next },
      {
        onSuccess: () => announce(next === null || next === '' ? `${name} cleared` : `${name} saved`),
        /* A checkbox shows its change at once; a refusal puts it back (typed text stays, to be corrected). */
        onError: () => {
          if (type === 2) setDraft(saved);
        },
      },
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) save(value || null);
  };

  const actions = (
    <div className="flex items-end gap-1 pb-px">
      {type !== 2 && (
        <Button size="sm" type="submit" aria-label={`Save ${name}`} disabled={!changed} busy={mutation.isPending}>
          Save
        </Button>
      )}
      {saved !== '' && (
        <Button size="sm" variant="ghost" aria-label={`Clear ${name}`} disabled={mutation.isPending} onClick={() => save(null)}>
          Clear
        </Button>
      )}
    </div>
  );

  if (type === 2) {
    return (
      <form onSubmit={submit} className="flex flex-wrap items-center justify-between gap-2 py-2">
        <Checkbox
          label={name}
          hint={saved === '' ? 'Not set' : undefined}
          checked={draft === '1'}
          disabled={mutation.isPending}
          onChange={(e) => {
            const next = e.target.checked ? '1' : '0';
            setDraft(next);
            save(next);
          }}
          aria-invalid={error ? true : undefined}
        />
        {actions}
        {error && (
          <p role="alert" className="w-full text-xs font-medium text-red-700">
            {error}
          </p>
        )}
      </form>
    );
  }

  const control =
    type === 6 ? (
      <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2">
        <SelectField
          label={name}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          error={error}
          options={[
            { value: '', label: 'Not set' },
            ...options.map((o) => ({ value: o.label, label: o.label })),
            ...(saved && !options.some((o) => o.label === saved) ? [{ value: saved, label: saved }] : []),
            { value: NEW_OPTION, label: 'New option…' },
          ]}
        />
        {draft === NEW_OPTION && (
          <TextField
            label={`New option for ${name}`}
            value={newOption}
            autoFocus
            maxLength={255}
            onChange={(e) => setNewOption(e.target.value)}
          />
        )}
      </div>
    ) : (
      <TextField
        label={name}
        className="min-w-0 flex-1"
        type={type === 3 ? 'date' : type === 7 ? 'number' : 'text'}
        step={type === 7 ? 'any' : undefined}
        inputMode={type === 7 ? 'decimal' : undefined}
        value={draft}
        error={error}
        onChange={(e) => setDraft(e.target.value)}
      />
    );

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2 py-2">
      {control}
      {actions}
    </form>
  );
}
