import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { runningSessionsQueryOptions } from '../../api/calls';
import { formatDateTime } from '../../lib/format';

/** The member's own sessions not ended yet, each with a way back into the dialer. Nothing when there are none. */
export function RunningSessions({ memberId }: { memberId: string }) {
  const query = useQuery(runningSessionsQueryOptions(memberId));
  const sessions = query.data ?? [];
  if (!sessions.length) return null;
  return (
    <section aria-labelledby="running-sessions" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3">
      <h2 id="running-sessions" className="text-sm font-semibold text-amber-900">
        {sessions.length === 1 ? 'A dial session of yours is still open' : 'Dial sessions of yours are still open'}
      </h2>
      <ul className="mt-1 flex flex-col gap-1 text-sm text-amber-900">
        {sessions.map((s) => (
          <li key={s.dialsession_id} className="flex flex-wrap items-center gap-x-3">
            <span>
              Session {s.dialsession_id}: {s.status === 'active' ? `running since ${formatDateTime(s.start_when)}` : 'not started yet'},{' '}
              {s.call_count.toLocaleString()} of {s.contact_count.toLocaleString()} contacts called
            </span>
            <Link
              to={`/dialer/${encodeURIComponent(s.dialsession_id)}`}
              className="font-medium text-indigo-700 underline-offset-2 hover:underline"
            >
              Go back to session {s.dialsession_id}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
