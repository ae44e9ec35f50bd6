import { useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { fetchVersioned, STALE_VERSION, useUpdateContact, type ContactWriteBody, type VersionedContact } from '../../api/contacts';
import type { Folder } from '../../api/folders';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, errorMessage } from '../../lib/api-client';
import { ChangeTable, type ChangeRow } from './change-table';
import type { ContactFieldName, ContactFormValues } from './contact-form-schema';
import { comparable, COMPARED_FIELDS, displayValue, labelOf, sameValue } from './field-changes';

export type ConflictState = {
  /** The record the form started from. */
  base: ContactRecord;
  /** The record as it is now, saved by someone else meanwhile. */
  current: VersionedContact;
  typed: ContactFormValues;
  dirty: Partial<Record<ContactFieldName, unknown>>;
  /** The update the user asked for (only the fields they changed). */
  body: ContactWriteBody;
};

type Props = {
  conflict: ConflictState;
  folders: Folder[];
  onBack: () => void;
  /** Drop the user's changes and edit the current version instead. */
  onReload: (current: VersionedContact) => void;
  onApplied: (message: string) => void;
};

const newestNote = (record: ContactRecord) => (record.notes?.notes ?? '').split(/\n\s*\n/)[0]?.trim() ?? '';

/** Every field that someone else or the user changed: as it was, as it is now, as the user has it. */
export function conflictRows({ base, current, typed, dirty }: Omit<ConflictState, 'body'>, folders: Folder[]): ChangeRow[] {
  const was = comparable(base);
  const now = comparable(current.record);
  const rows: ChangeRow[] = [];
  for (const field of COMPARED_FIELDS) {
    const theirs = !sameValue(field, was[field], now[field]);
    const mine = Boolean(dirty[field]) && !sameValue(field, was[field], typed[field]);
    if (!theirs && !mine) continue;
    const show = (v: string) => displayValue(field, v, folders);
    rows.push({
      field,
      label: labelOf(field),
      cells: [show(was[field]), show(now[field]), mine ? show(typed[field]) : 'Not changed by you'],
      clash: theirs && mine && !sameValue(field, now[field], typed[field]),
    });
  }
  const theirNote = (current.record.notes?.notes ?? '') !== (base.notes?.notes ?? '') ? `Added: ${newestNote(current.record)}` : '—';
  if (typed.notes.trim() || theirNote !== '—')
    rows.push({
      field: 'notes',
      label: 'Notes',
      cells: ['—', theirNote, typed.notes.trim() ? `Adds: ${typed.notes.trim()}` : 'Not changed by you'],
    });
  if (typed.tags.trim()) rows.push({ field: 'tags', label: 'Tags', cells: ['—', '—', `Adds: ${typed.tags}`] });
  return rows;
}

/**
 * The contact changed since the form read it, and the server refused to overwrite it (409). Shows the three
 * versions side by side; the user reloads the current one (dropping their edits) or applies their own changes
 * over it (a PUT against the current version, so a third change in between is caught again).
 */
export function ConflictReview({ conflict, folders, onBack, onReload, onApplied }: Props) {
  const update = useUpdateContact();
  const [current, setCurrent] = useState(conflict.current);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = conflictRows({ ...conflict, current }, folders);

  const apply = () => {
    setNotice(null);
    update.mutate(
      { id: current.record.contact_user_id, body: conflict.body, etag: current.etag },
      {
        onSuccess: () => onApplied('Contact saved with your changes'),
        onError: async (error) => {
          if (error instanceof ApiError && error.hasCode(STALE_VERSION)) {
            setNotice('It changed again meanwhile. This is the newest version.');
            setCurrent(await fetchVersioned(current.record.contact_user_id).catch(() => current));
          } else setNotice(errorMessage(error));
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onBack}
      preventClose={update.isPending}
      size="lg"
      role="alertdialog"
      title="Someone else changed this contact"
      description="It was saved by someone else after you opened it. Nothing of yours has been saved yet."
      footer={
        <>
          <Button onClick={() => onReload(current)} disabled={update.isPending}>
            Reload their version
          </Button>
          <Button variant="primary" onClick={apply} busy={update.isPending}>
            Apply my changes
          </Button>
        </>
      }
    >
      {notice && (
        <p role="alert" className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      )}
      <ChangeTable caption="What changed" headings={['When you opened it', 'Now', 'Yours']} rows={rows} />
      <p className="mt-3 text-xs text-zinc-500">
        Applying your changes saves the fields you changed over the current version; fields only they changed keep their values. Reloading
        drops your changes.
      </p>
    </Dialog>
  );
}
