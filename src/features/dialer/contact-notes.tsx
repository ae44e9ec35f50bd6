import { useId, type FormEvent } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { Button } from '../../components/ui/button';
import { TextareaField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, noteEntries } from '../../lib/format';
import { DraftRestored } from './draft-restored';
import { draftKey, useDraft } from './use-draft';

type Props = {
  sessionId: string;
  contact: ContactRecord;
  onAdd: (note: string, done: () => void) => void;
  pending: boolean;
  error: unknown;
};

/**
 * A note typed during the call goes on the contact's history and on the call (the dialer's note action). Until it is
 * added it is a draft of this session and contact, kept through a reload.
 */
export function ContactNotes({ sessionId, contact, onAdd, pending, error }: Props) {
  const { value: text, setValue: setText, restored } = useDraft(draftKey(sessionId, contact.contact_user_id, 'note'), '', (v) => v === '');
  const historyId = useId();
  const entries = noteEntries(contact.notes?.notes);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const note = text.trim();
    if (note) onAdd(note, () => setText(''));
  };

  return (
    <div className="space-y-3 border-t border-zinc-100 pt-4">
      <form onSubmit={submit} className="space-y-2" aria-label="Add a note">
        {restored && <DraftRestored>the note you had not added yet is back.</DraftRestored>}
        <TextareaField
          label="Note"
          value={text}
          maxLength={20000}
          rows={3}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
          }}
          hint="Ctrl+Enter adds the note."
          error={error ? errorMessage(error) : undefined}
        />
        <div className="flex justify-end">
          <Button size="sm" type="submit" disabled={!text.trim()} busy={pending}>
            Add note
          </Button>
        </div>
      </form>
      <div>
        <h3 id={historyId} className="mb-1.5 text-sm font-semibold text-zinc-900">
          Notes history
        </h3>
        {entries.length ? (
          <ul aria-labelledby={historyId} className="max-h-64 space-y-2 overflow-y-auto text-sm">
            {entries.map((entry, i) => (
              <li key={`${i}:${entry.raw.slice(0, 40)}`} className="rounded-md bg-zinc-50 px-3 py-2">
                {/* As the contact page shows a note: the app's date format, the author, then the text. */}
                {entry.when && (
                  <p className="text-xs text-zinc-500">
                    <time dateTime={`${entry.when.replace(' ', 'T')}Z`}>{formatDateTime(entry.when)}</time> · {entry.author}
                  </p>
                )}
                <p className="whitespace-pre-wrap text-zinc-800">{entry.text}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-zinc-500">No notes yet.</p>
        )}
      </div>
    </div>
  );
}
