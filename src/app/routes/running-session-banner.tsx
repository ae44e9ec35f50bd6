import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { runningSessionQueryOptions } from '../../api/dial-sessions';

/**
 * The way back to a running dial session from any screen but that session's dialer. Read again on every change of
 * screen (mounted afresh per path), on focus and every half minute: a session ended elsewhere drops it soon after.
 */
export function RunningSessionBanner({ memberId }: { memberId: string }) {
  const { pathname } = useLocation();
  const onDialer = /^\/dialer\/([^/]+)/.exec(pathname)?.[1] ?? null;
  return <RunningSessionNotice key={pathname} memberId={memberId} hiddenFor={onDialer} />;
}

function RunningSessionNotice({ memberId, hiddenFor }: { memberId: string; hiddenFor: string | null }) {
  const running = useQuery({ ...runningSessionQueryOptions(memberId), staleTime: 0 });
  const session = running.data;
  if (!session || session.dialsession_id === hiddenFor) return null;
  return (
    <aside aria-label="Running dial session" className="border-b border-emerald-200 bg-emerald-50 px-4 py-2 sm:px-6">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-emerald-900">
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
          {`Dial session ${session.dialsession_id} running`}
        </span>
        <Link
          to={`/dialer/${encodeURIComponent(session.dialsession_id)}`}
          className="inline-flex min-h-8 items-center rounded-md font-semibold text-emerald-800 underline underline-offset-2 hover:text-emerald-950"
        >
          Return to dialer
        </Link>
      </p>
    </aside>
  );
}
