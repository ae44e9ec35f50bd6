import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { BulkJobRecord } from '../../../server/contracts/bulk-jobs';
import { bulkJobQueryOptions, isFinished } from '../../api/bulk-jobs';
import { useRestoreContacts } from '../../api/trash';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import type { StartedJob } from './bulk-job-dialog';

const contacts = (n: number) => formatCount(n, 'contact', 'contacts');

function runningText({ action, target }: StartedJob, total: number): string {
  switch (action) {
    case 'add_tag':
      return `Adding tag “${target}” to ${contacts(total)}…`;
    case 'remove_tag':
      return `Removing tag “${target}” from ${contacts(total)}…`;
    case 'move':
      return `Moving ${contacts(total)} to ${target}…`;
    case 'transfer':
      return `Transferring ${contacts(total)} to ${target}…`;
    case 'trash':
      return `Moving ${contacts(total)} to trash…`;
  }
}

/** "Tag “VIP” added to 300 contacts; 12 already had it." */
export function resultText({ action, target }: StartedJob, job: BulkJobRecord): string {
  const unchanged = job.processed - job.changed;
  const rest = (text: string) => (unchanged > 0 ? `; ${unchanged.toLocaleString()} ${text}` : '');
  switch (action) {
    case 'add_tag':
      return `Tag “${target}” added to ${contacts(job.changed)}${rest('already had it')}.`;
    case 'remove_tag':
      return `Tag “${target}” removed from ${contacts(job.changed)}${rest('did not have it')}.`;
    case 'move':
      return `${contacts(job.changed)} moved to ${target}${rest('were there already')}.`;
    case 'transfer':
      return `${contacts(job.changed)} transferred to ${target}${rest('were theirs already')}.`;
    case 'trash':
      return `${contacts(job.changed)} moved to trash.`;
  }
}

function ProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done.toLocaleString()} of ${total.toLocaleString()}`}
        className="h-2 w-full max-w-md overflow-hidden rounded-full bg-indigo-100"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-sm whitespace-nowrap text-indigo-900 tabular-nums">
        {done.toLocaleString()} of {total.toLocaleString()}
      </span>
    </div>
  );
}

function UndoTrash({ ids, onDone }: { ids: string[]; onDone: (text: string) => void }) {
  const [restored, setRestored] = useState(0);
  const restore = useRestoreContacts(setRestored);
  if (restore.isPending) return <ProgressBar label="Restoring contacts" done={restored} total={ids.length} />;
  return (
    <>
      <Button
        size="sm"
        onClick={() => restore.mutate(ids, { onSuccess: () => onDone(`${contacts(ids.length)} restored from the trash.`) })}
      >
        Undo
      </Button>
      {restore.isError && <span className="text-sm text-red-700">Undo failed: {errorMessage(restore.error)}</span>}
    </>
  );
}

type Props = { started: StartedJob; onFinished: (job: BulkJobRecord) => void; onDismiss: () => void };

/**
 * A bulk job's progress while the server works through it (asked every half second), then its result. Not
 * modal: the user can go on working meanwhile.
 */
export function BulkJobProgress({ started, onFinished, onDismiss }: Props) {
  const query = useQuery({ ...bulkJobQueryOptions(started.job.bulk_job_id), initialData: started.job });
  const job = query.data;
  const finished = isFinished(job);
  const [undone, setUndone] = useState<string | null>(null);
  const reported = useRef(false);

  useEffect(() => {
    if (finished && !reported.current) {
      reported.current = true;
      onFinished(job);
    }
  }, [finished, job, onFinished]);

  const undoable = started.action === 'trash' && started.selection.kind === 'ids' && job.status === 'done' && job.changed > 0;

  return (
    <section aria-label="Bulk change" className="rounded-lg border border-indigo-200 bg-white px-3 py-2 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div role="status" className="min-w-0 flex-1 space-y-1.5 text-sm">
          {!finished && <p className="font-medium text-zinc-800">{runningText(started, job.total)}</p>}
          {job.status === 'done' && <p className="font-medium text-emerald-800">{undone ?? resultText(started, job)}</p>}
          {job.status === 'failed' && (
            <p className="font-medium text-red-800">
              The change stopped after {contacts(job.processed)}: {job.error || 'the server could not finish it.'}
            </p>
          )}
          {query.isError && !finished && <p className="text-red-700">Progress could not be read: {errorMessage(query.error)} Retrying…</p>}
        </div>
        <div className="flex items-center gap-2">
          {undoable && !undone && started.selection.kind === 'ids' && <UndoTrash ids={started.selection.ids} onDone={setUndone} />}
          {finished && (
            <Button size="sm" variant="ghost" onClick={onDismiss}>
              Dismiss
            </Button>
          )}
        </div>
      </div>
      {!finished && <ProgressBar label="Bulk change progress" done={job.processed} total={job.total} />}
    </section>
  );
}
