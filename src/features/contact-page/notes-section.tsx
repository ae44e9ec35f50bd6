import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { TextareaField } from '../../components/ui/field';
import { InlineError } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { formatDateTime, noteEntries } from '../../lib/format';
import { localError, useContactPage } from './contact-context';

/** The notes history and a box to add one (a contact update: it goes on the history with the date and the author). */
export function NotesSection() {
  const { contact, save, saving } = useContactPage();
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const entries = noteEntries(contact.notes?.notes);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const note = text.trim();
    if (!note) return;
    setError(null);
    try {
      await save({ notes: note }, 'Note added');
      setText('');
    } catch (e) {
      setError(localError(e));
    }
  };

  return (
    <Section title="Notes">
      <form onSubmit={submit} className="space-y-2">
        <TextareaField
          label="New note"
          rows={3}
          maxLength={20000}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
          }}
          hint="Added to the history with the date and your name. Ctrl+Enter adds it."
        />
        <InlineError error={error} />
        <div className="flex justify-end">
          <Button size="sm" type="submit" variant="primary" disabled={!text.trim()} busy={saving && Boolean(text.trim())}>
            Add note
          </Button>
        </div>
      </form>
      <h3 className="mt-4 mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">History</h3>
      {entries.length === 0 ? (
        <p className="text-sm text-zinc-500">No notes yet.</p>
      ) : (
        <ol aria-label="Notes history" tabIndex={0} className="max-h-96 space-y-2 overflow-y-auto">
          {entries.map((entry, i) => (
            <li key={`${i}:${entry.raw.slice(0, 40)}`} className="rounded-md bg-zinc-50 px-3 py-2 text-sm">
              {entry.when && (
                <p className="text-xs text-zinc-500">
                  <time dateTime={`${entry.when.replace(' ', 'T')}Z`}>{formatDateTime(entry.when)}</time> · {entry.author}
                </p>
              )}
              <p className="whitespace-pre-wrap text-zinc-800">{entry.text}</p>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
