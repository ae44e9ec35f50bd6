import { useDeleteContacts, type DeleteMode } from '../../api/contacts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

export type DeleteRequest = { ids: string[]; mode: DeleteMode; /** Shown for a single contact. */ name?: string };

const confirmLabel: Record<DeleteMode, string> = { trash: 'Move to trash', permanent: 'Delete permanently' };

function titleFor({ ids, mode, name }: DeleteRequest): string {
  const what = ids.length === 1 ? (name ? name : 'this contact') : formatCount(ids.length, 'contact', 'contacts');
  return mode === 'trash' ? `Move ${what} to trash?` : `Delete ${what} permanently?`;
}

export function doneMessage({ ids, mode }: DeleteRequest): string {
  const what = ids.length === 1 ? 'Contact' : formatCount(ids.length, 'contact', 'contacts');
  return mode === 'trash' ? `${what} moved to trash` : `${what} deleted permanently`;
}

/** Confirms trashing or permanently deleting one or more contacts, then runs it. */
export function DeleteConfirmation({
  request,
  onCancel,
  onDone,
}: {
  request: DeleteRequest | null;
  onCancel: () => void;
  onDone: (request: DeleteRequest) => void;
}) {
  const remove = useDeleteContacts();

  const close = () => {
    remove.reset();
    onCancel();
  };

  const confirm = () => {
    if (!request) return;
    remove.mutate(
      { ids: request.ids, mode: request.mode },
      {
        onSuccess: () => {
          remove.reset();
          onDone(request);
        },
      },
    );
  };

  const failed = remove.isError && !(remove.error instanceof ApiError && remove.error.status === 401);

  return (
    <Dialog
      open={request !== null}
      onClose={close}
      size="sm"
      preventClose={remove.isPending}
      title={request ? titleFor(request) : ''}
      footer={
        request && (
          <>
            <Button onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant={request.mode === 'permanent' ? 'danger' : 'primary'} onClick={confirm} busy={remove.isPending}>
              {confirmLabel[request.mode]}
            </Button>
          </>
        )
      }
    >
      <p className="text-sm text-zinc-700">
        {request?.mode === 'permanent'
          ? 'The contact records and their history are erased. This cannot be undone.'
          : 'Contacts in the trash no longer appear in lists or dial sessions.'}
      </p>
      {failed && (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorMessage(remove.error)}
        </p>
      )}
    </Dialog>
  );
}
