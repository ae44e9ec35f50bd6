import { useState } from 'react';
import { useDeleteContacts } from '../../api/contacts';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

export type DeleteRequest = { ids: string[]; /** Shown for a single contact. */ name?: string };

function titleFor({ ids, name }: DeleteRequest): string {
  const what = ids.length === 1 ? (name ? name : 'this contact') : formatCount(ids.length, 'contact', 'contacts');
  return `Delete ${what} permanently?`;
}

export function doneMessage({ ids }: DeleteRequest): string {
  return `${ids.length === 1 ? 'Contact' : formatCount(ids.length, 'contact', 'contacts')} deleted permanently`;
}

/** Confirms deleting contacts for good, then deletes them in chunks, showing how far it got. */
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
  const [done, setDone] = useState(0);

  const close = () => {
    remove.reset();
    onCancel();
  };

  const confirm = () => {
    if (!request) return;
    setDone(0);
    remove.mutate(
      { ids: request.ids, mode: 'permanent', onProgress: setDone },
      {
        onSuccess: () => {
          remove.reset();
          onDone(request);
        },
      },
    );
  };

  const failed = remove.isError && !(remove.error instanceof ApiError && remove.error.status === 401);
  const total = request?.ids.length ?? 0;

  return (
    <Dialog
      open={request !== null}
      onClose={close}
      role="alertdialog"
      size="sm"
      preventClose={remove.isPending}
      title={request ? titleFor(request) : ''}
      footer={
        request && (
          <>
            <Button onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirm} busy={remove.isPending}>
              Delete permanently
            </Button>
          </>
        )
      }
    >
      <p className="text-sm text-zinc-700">The contact records and their history are erased. This cannot be undone.</p>
      {remove.isPending && total > 1 && (
        <div
          role="progressbar"
          aria-label="Deleting contacts"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={done}
          aria-valuetext={`${done.toLocaleString()} of ${total.toLocaleString()}`}
          className="mt-3 h-2 overflow-hidden rounded-full bg-red-100"
        >
          <div className="h-full bg-red-600 transition-[width]" style={{ width: `${total ? Math.round((done / total) * 100) : 0}%` }} />
        </div>
      )}
      {failed && (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {done > 0 ? `${formatCount(done, 'contact was', 'contacts were')} deleted before this failed: ` : ''}
          {errorMessage(remove.error)}
        </p>
      )}
    </Dialog>
  );
}
