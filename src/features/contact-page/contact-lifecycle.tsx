import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRestoreContact } from '../../api/contact-details';
import { useDeleteContacts } from '../../api/contacts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { InlineError } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';
import { useContactPage } from './contact-context';

type Asking = 'trash' | 'delete' | null;

/** Trash (active contact) or restore and delete for good (contact in the trash). */
export function ContactLifecycle({ name }: { name: string }) {
  const { contact, reload } = useContactPage();
  const id = contact.contact_user_id;
  const trashed = contact.trashed === '1';
  const remove = useDeleteContacts();
  const restore = useRestoreContact();
  const { announce } = useStatus();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<Asking>(null);

  const close = () => {
    remove.reset();
    setAsking(null);
  };

  const trash = () =>
    remove.mutate(
      { ids: [id], mode: 'trash' },
      {
        onSuccess: async () => {
          close();
          announce(`${name} moved to the trash`);
          await reload();
        },
      },
    );

  const deleteForever = () =>
    remove.mutate(
      { ids: [id], mode: 'permanent' },
      {
        onSuccess: () => {
          close();
          announce(`${name} deleted permanently`);
          navigate(trashed ? '/trash' : '/contacts', { replace: true });
        },
      },
    );

  return (
    <>
      {trashed ? (
        <>
          <Button
            size="sm"
            variant="primary"
            busy={restore.isPending}
            onClick={async () => {
              /* Awaited rather than a mutate callback: the restored page no longer shows this button, so it unmounts. */
              try {
                await restore.mutateAsync(id);
                announce(`${name} restored from the trash`);
              } catch {
                /* shown below */
              }
            }}
          >
            Restore
          </Button>
          <Button size="sm" variant="danger" onClick={() => setAsking('delete')}>
            Delete permanently
          </Button>
        </>
      ) : (
        <Button size="sm" variant="danger-ghost" onClick={() => setAsking('trash')}>
          Move to trash
        </Button>
      )}
      {restore.isError && <InlineError error={restore.error} />}
      <ConfirmDialog
        open={asking === 'trash'}
        title={`Move ${name} to the trash?`}
        confirmLabel="Move to trash"
        tone="primary"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={trash}
        onCancel={close}
      >
        <p>The contact leaves your lists and dial sessions. You can restore it from the trash later.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'delete'}
        title={`Delete ${name} permanently?`}
        confirmLabel="Delete permanently"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={deleteForever}
        onCancel={close}
      >
        <p>
          {`The contact, its ${formatCount(contact.phones?.length ?? 0, 'phone number', 'phone numbers')}, ${formatCount(contact.emails?.length ?? 0, 'e-mail address', 'e-mail addresses')}, ${formatCount(contact.tags?.length ?? 0, 'tag', 'tags')}, custom-field values and notes are erased.`}{' '}
          <strong>This cannot be undone.</strong>
        </p>
      </ConfirmDialog>
    </>
  );
}
