import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { versionedContactQueryOptions, type VersionedContact } from '../../api/contacts';
import { foldersQueryOptions } from '../../api/folders';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { ContactForm, type SaveOutcome } from './contact-form';
import { contactDisplayName } from './contact-name';

export type ContactEditorTarget = { kind: 'new' } | { kind: 'edit'; id: string; name: string };

type Props = {
  target: ContactEditorTarget | null;
  onClose: () => void;
  onSaved: (outcome: SaveOutcome) => void;
  onTrash: (contact: ContactRecord) => void;
};

/**
 * "New contact" / "Edit <name>" in a modal; the edit form loads the full record first. Closing a form with
 * changes asks first, and so does leaving the page.
 */
export function ContactFormDialog({ target, onClose, onSaved, onTrash }: Props) {
  const formId = useId();
  const [pending, setPending] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const requestClose = () => (dirty ? setConfirmingDiscard(true) : onClose());

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const folders = useQuery(foldersQueryOptions());
  const editId = target?.kind === 'edit' ? target.id : null;
  const detail = useQuery({ ...versionedContactQueryOptions(editId ?? ''), enabled: editId !== null });
  /*
   * The form edits the record as freshly read when it opened (with its ETag), kept aside: a later refetch must not
   * swap it under the user's edits. Only "Reload their version" after a conflict replaces it.
   */
  const [snapshot, setSnapshot] = useState<VersionedContact | null>(null);
  const base = editId && snapshot?.record.contact_user_id === editId ? snapshot : null;
  useEffect(() => {
    if (editId && !base && detail.data && detail.isFetchedAfterMount) setSnapshot(detail.data);
  }, [editId, base, detail.data, detail.isFetchedAfterMount]);

  const contact = base?.record;
  const title = target?.kind === 'edit' ? `Edit ${contact ? contactDisplayName(contact) : target.name}` : 'New contact';
  const ready = target?.kind === 'new' || Boolean(contact);

  return (
    <>
      <Dialog
        open={target !== null}
        onClose={requestClose}
        title={title}
        size="lg"
        preventClose={pending}
        footer={
          <>
            {contact && (
              <Button variant="danger-ghost" className="mr-auto" onClick={() => onTrash(contact)} disabled={pending}>
                Move to trash
              </Button>
            )}
            <Button onClick={requestClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" form={formId} variant="primary" busy={pending} disabled={!ready}>
              Save contact
            </Button>
          </>
        }
      >
        {target?.kind === 'edit' && !contact && !detail.isError && (
          <div className="flex justify-center py-16" aria-busy="true">
            <Spinner label="Loading contact…" />
          </div>
        )}
        {target?.kind === 'edit' && detail.isError && !contact && (
          <ErrorState message={errorMessage(detail.error)} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />
        )}
        {target && ready && (
          <ContactForm
            key={contact ? `${contact.contact_user_id}:${base?.etag ?? ''}` : 'new'}
            formId={formId}
            contact={contact}
            etag={base?.etag}
            onReload={setSnapshot}
            folders={folders.data ?? []}
            onPendingChange={setPending}
            onDirtyChange={setDirty}
            onSaved={onSaved}
          />
        )}
      </Dialog>
      <Dialog
        open={confirmingDiscard}
        onClose={() => setConfirmingDiscard(false)}
        role="alertdialog"
        size="sm"
        title="Discard unsaved changes?"
        footer={
          <>
            <Button onClick={() => setConfirmingDiscard(false)}>Keep editing</Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirmingDiscard(false);
                onClose();
              }}
            >
              Discard changes
            </Button>
          </>
        }
      >
        <p className="text-sm text-zinc-700">The changes you made to this contact have not been saved.</p>
      </Dialog>
    </>
  );
}
