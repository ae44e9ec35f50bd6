import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { phoneDigits } from '../../../server/contracts/contacts';
import { isStaleVersion, useUpdateContact, versionedContactQueryOptions } from '../../api/contacts';
import { dialSessionKeys } from '../../api/dial-sessions';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatPhone } from '../../lib/format';
import { DraftRestored } from './draft-restored';
import { draftKey, useDraft } from './use-draft';

type Values = { first_name: string; last_name: string; phone: string };
type Field = keyof Values;

const LABELS: Record<Field, string> = { first_name: 'First name', last_name: 'Last name', phone: 'Primary phone' };

const baselineOf = (contact: ContactRecord): Values => ({
  first_name: contact.first_name ?? '',
  last_name: contact.last_name ?? '',
  phone: formatPhone(contact.primary_phone?.raw_phone ?? ''),
});

const same = (field: Field, a: string, b: string) => (field === 'phone' ? phoneDigits(a) === phoneDigits(b) : a.trim() === b.trim());

/**
 * Quick edits of the contact on screen through the contacts API (each change audited there): names, primary phone,
 * and the do-not-call flag, which is saved as soon as it is switched. Saved with If-Match on the version read when the
 * contact came up: a change made elsewhere meanwhile is refused (409) and read again, never overwritten.
 */
export function ContactEditor({
  sessionId,
  contact,
  onSaved,
}: {
  sessionId: string;
  contact: ContactRecord;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const update = useUpdateContact();
  const versioned = useQuery(versionedContactQueryOptions(contact.contact_user_id));
  /* Edits not saved yet are a draft of this session and contact, kept through a reload. */
  const {
    value: draft,
    setValue: setDraft,
    restored,
  } = useDraft<Partial<Values>>(draftKey(sessionId, contact.contact_user_id, 'edits'), {}, (d) => Object.keys(d).length === 0);
  /* The switch shows the new value at once; the record catches up when the snapshot is read again. */
  const [doNotCall, setDoNotCall] = useState<boolean | null>(null);
  const baseline = baselineOf(contact);
  const values = { ...baseline, ...draft };
  const changed = (Object.keys(LABELS) as Field[]).filter((f) => !same(f, values[f], baseline[f]));
  /* After a refusal the version is read again: a save sent before it arrives would be refused the same way. */
  const rereading = versioned.isFetching;
  const fieldError = (field: Field) =>
    update.error instanceof ApiError ? update.error.fieldErrors.find((e) => e.field === field)?.reason : undefined;

  const save = (body: Record<string, unknown>, message: string, after?: () => void) => {
    update.mutate(
      { id: contact.contact_user_id, body, etag: versioned.data?.etag ?? null },
      {
        onError: (error) => {
          setDoNotCall(null);
          if (isStaleVersion(error)) {
            void versioned.refetch();
            void queryClient.invalidateQueries({ queryKey: dialSessionKeys.lives() });
          }
        },
        onSuccess: async () => {
          after?.();
          onSaved(message);
          await queryClient.invalidateQueries({ queryKey: dialSessionKeys.lives() });
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed.length) return;
    const body = Object.fromEntries(changed.map((f) => [f, values[f].trim()]));
    save(body, 'Contact details saved', () => setDraft({}));
  };

  const generalError = !update.isError
    ? null
    : isStaleVersion(update.error)
      ? 'Nothing was saved: this contact was changed elsewhere meanwhile, and has been read again. Check your changes and save again.'
      : update.error instanceof ApiError && update.error.fieldErrors.length
        ? null
        : errorMessage(update.error);

  return (
    <form onSubmit={onSubmit} aria-label="Edit contact" className="space-y-3 border-t border-zinc-100 pt-4" noValidate>
      {restored && changed.length > 0 && <DraftRestored>your changes not saved yet are back.</DraftRestored>}
      <div className="grid gap-3 sm:grid-cols-3">
        {(Object.keys(LABELS) as Field[]).map((field) => (
          <TextField
            key={field}
            label={LABELS[field]}
            value={values[field]}
            type={field === 'phone' ? 'tel' : 'text'}
            autoComplete="off"
            error={fieldError(field)}
            onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))}
          />
        ))}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex cursor-pointer items-center gap-2 text-sm font-medium text-zinc-700">
          <input
            type="checkbox"
            role="switch"
            checked={doNotCall ?? contact.do_not_call === '1'}
            disabled={update.isPending || rereading}
            onChange={(e) => {
              const on = e.target.checked;
              setDoNotCall(on);
              save({ do_not_call: on ? 1 : 0 }, on ? 'Marked do not call' : 'Do not call removed');
            }}
            className="size-4 accent-red-600"
          />
          Do not call
        </label>
        <div className="flex gap-2">
          {changed.length > 0 && (
            <Button size="sm" variant="ghost" onClick={() => setDraft({})} disabled={update.isPending}>
              Undo changes
            </Button>
          )}
          <Button size="sm" type="submit" disabled={!changed.length} busy={update.isPending || rereading}>
            Save changes
          </Button>
        </div>
      </div>
      {generalError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {generalError}
        </p>
      )}
    </form>
  );
}
