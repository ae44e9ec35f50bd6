import type { QueueEntry } from '../../api/dial-sessions';

const PENDING_LABEL: Record<'pending' | 'current', string> = { pending: 'Up next', current: 'On screen' };

function outcome(entry: QueueEntry, ended: boolean): string {
  if (entry.status === 'pending' || entry.status === 'current') return ended ? 'Not dialed' : PENDING_LABEL[entry.status];
  return entry.result || 'No result';
}

const tone: Record<QueueEntry['status'], string> = {
  pending: 'text-zinc-500',
  current: 'font-medium text-indigo-700',
  done: 'text-zinc-800',
  skipped: 'text-amber-700',
};

/** The contacts around the current one: finished ones with their results, then those still to come. */
export function DialQueue({ queue, total, ended }: { queue: QueueEntry[]; total: number; ended: boolean }) {
  return (
    <section aria-labelledby="dial-queue-heading" className="rounded-lg border border-zinc-200 bg-white shadow-sm">
      <h2 id="dial-queue-heading" className="border-b border-zinc-200 px-4 py-2.5 text-sm font-semibold text-zinc-900">
        Queue <span className="font-normal text-zinc-500">({total.toLocaleString()})</span>
      </h2>
      {queue.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-500">No contacts in this session.</p>
      ) : (
        <ol className="max-h-96 divide-y divide-zinc-100 overflow-y-auto">
          {queue.map((entry) => (
            <li
              key={entry.position}
              aria-current={entry.status === 'current' && !ended ? 'true' : undefined}
              className={`flex items-baseline justify-between gap-3 px-4 py-2 text-sm ${entry.status === 'current' && !ended ? 'bg-indigo-50' : ''}`}
            >
              <span className="min-w-0 truncate">
                <span className="mr-2 text-xs text-zinc-400 tabular-nums">{entry.position + 1}.</span>
                {entry.name}
              </span>
              <span className={`shrink-0 ${tone[entry.status]}`}>
                <span className="sr-only">: </span>
                {outcome(entry, ended)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
