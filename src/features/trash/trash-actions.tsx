import { useState } from 'react';
import { useDeleteForever, useRestoreContacts } from '../../api/trash';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ProgressBar } from '../../components/ui/progress-bar';
import { useStatus } from '../../components/ui/status-message';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

type Props = { ids: string[]; /** The contact's name when one is chosen. */ name?: string; onDone: (ids: string[]) => void };

/** Restore the chosen contacts, or delete them for good (confirmed), showing progress while it runs. */
export function TrashActions({ ids, name, onDone }: Props) {
  const [done, setDone] = useState(0);
  const restore = useRestoreContacts(setDone);
  const purge = useDeleteForever(setDone);
  const { announce } = useStatus();
  const [confirming, setConfirming] = useState(false);
  const what = ids.length === 1 && name ? name : formatCount(ids.length, 'contact', 'contacts');
  const running = restore.isPending || purge.isPending;

  const runRestore = () => {
    setDone(0);
    purge.reset();
    restore.mutate(ids, {
      onSuccess: (n) => {
        announce(`${ids.length === 1 && name ? name : formatCount(n, 'contact', 'contacts')} restored`);
        onDone(ids);
      },
    });
  };
  const runPurge = () => {
    setDone(0);
    restore.reset();
    purge.mutate(ids, {
      onSuccess: (n) => {
        setConfirming(false);
        announce(`${ids.length === 1 && name ? name : formatCount(n, 'contact', 'contacts')} deleted permanently`);
        onDone(ids);
      },
    });
  };

  if (ids.length === 0) return null;
  return (
    <div role="region" aria-label="Selected contacts" className="space-y-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm font-medium text-indigo-900">{`${formatCount(ids.length, 'contact', 'contacts')} selected`}</p>
        <div className="ml-auto flex gap-2">
          <Button size="sm" variant="primary" onClick={runRestore} busy={restore.isPending} disabled={running}>
            {`Restore ${what}`}
          </Button>
          <Button size="sm" variant="danger" onClick={() => setConfirming(true)} disabled={running}>
            Delete permanently
          </Button>
        </div>
      </div>
      {restore.isPending && ids.length > 1 && (
        <ProgressBar
          value={done}
          max={ids.length}
          label={`Restoring ${done.toLocaleString()} of ${formatCount(ids.length, 'contact', 'contacts')}…`}
        />
      )}
      {restore.isError && !(restore.error instanceof ApiError && restore.error.status === 401) && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {`${done > 0 ? `${formatCount(done, 'contact was', 'contacts were')} restored, then this stopped the rest: ` : ''}${errorMessage(restore.error)}`}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${what} permanently?`}
        confirmLabel={`Delete ${formatCount(ids.length, 'contact', 'contacts')}`}
        busy={purge.isPending}
        error={purge.error}
        onCancel={() => {
          purge.reset();
          setConfirming(false);
        }}
        onConfirm={runPurge}
      >
        <p>
          {`${ids.length === 1 ? 'The contact' : `The ${formatCount(ids.length, 'contact', 'contacts')}`} and ${ids.length === 1 ? 'its' : 'their'} phones, e-mail addresses, tags, custom-field values and notes are erased.`}{' '}
          <strong>This cannot be undone.</strong>
        </p>
        {purge.isPending && ids.length > 1000 && (
          <ProgressBar value={done} max={ids.length} label={`Deleted ${done.toLocaleString()} of ${ids.length.toLocaleString()}…`} />
        )}
      </ConfirmDialog>
    </div>
  );
}
