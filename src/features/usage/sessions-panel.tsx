import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { DialSessionRecord } from '../../../server/contracts/dial-sessions';
import { sessionsQueryOptions, UNKNOWN_MEMBER, type DayRange } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { useDrillDown } from './drill-down';

type Props = {
  range: DayRange;
  /** One member's sessions (the drill-down), or the team's. */
  memberId: string | null;
  /** Member names by id, for the Member column. */
  names: Map<string, string>;
  /** A rep's own sessions, or one member's, need no Member column. */
  showMember: boolean;
};

const endedOf = (s: DialSessionRecord) =>
  s.status === 'ended' ? formatDateTime(s.end_when) : s.status === 'active' ? 'In progress' : 'Not started';

/** "Session of Nov 20, 2026, 3:00 PM" (or of its number, before it started). */
export const sessionTitle = (s: Pick<DialSessionRecord, 'dialsession_id' | 'start_when'>) =>
  `Session ${s.start_when ? `of ${formatDateTime(s.start_when)}` : s.dialsession_id}`;

/** Clicks anywhere on a row follow its link; keyboards and screen readers use the link itself. */
const fromOwnControl = (target: EventTarget) => target instanceof Element && target.closest('a, button') !== null;

/** The dial sessions made in the days shown, newest first; each opens its calls (the drill-down's next step). */
export function SessionsPanel({ range, memberId, names, showMember }: Props) {
  const [page, setPage] = useState(1);
  const query = useQuery(sessionsQueryOptions(range, memberId, page));
  const { linkTo } = useDrillDown();
  const navigate = useNavigate();

  if (query.isPending)
    return (
      <div className="p-4">
        <Spinner label="Loading dial sessions…" />
      </div>
    );
  if (query.isError) {
    return (
      <div className="px-4">
        <ErrorState
          title="Dial sessions could not be loaded"
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }
  const { sessions, total_pages: pages, total_results: total } = query.data;
  if (!sessions.length)
    return <EmptyState title="No dial sessions in these days">Sessions started from the contacts list appear here.</EmptyState>;

  return (
    <div className="flex flex-col" aria-busy={query.isPlaceholderData}>
      <div className="relative overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">Dial sessions in these days, newest first</caption>
          <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
            <tr className="border-y border-zinc-200">
              <th scope="col" className="px-3 py-2 text-left">
                Session
              </th>
              {showMember && (
                <th scope="col" className="px-3 py-2 text-left">
                  Member
                </th>
              )}
              <th scope="col" className="px-3 py-2 text-left">
                Ended
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Contacts
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Calls
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {sessions.map((s) => {
              const member = names.get(s.member_id) ?? UNKNOWN_MEMBER;
              const to = linkTo({ memberId: s.member_id, sessionId: s.dialsession_id });
              return (
                <tr
                  key={s.dialsession_id}
                  className="cursor-pointer hover:bg-zinc-50"
                  onClick={(e) => !fromOwnControl(e.target) && void navigate(to)}
                >
                  <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                    <Link to={to} className="text-indigo-700 underline-offset-2 hover:underline focus-visible:underline">
                      {formatDateTime(s.start_when, 'Not started')}
                      <span className="sr-only">{showMember ? `, ${member}'s session` : ', session'}</span>
                    </Link>
                  </th>
                  {showMember && <td className="px-3 py-2 whitespace-nowrap text-zinc-900">{member}</td>}
                  <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{endedOf(s)}</td>
                  <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{s.contact_count.toLocaleString()}</td>
                  <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{s.call_count.toLocaleString()}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <nav
        aria-label="Pages of dial sessions"
        className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-600"
      >
        <p aria-live="polite" className="mr-auto">
          {total.toLocaleString()} {total === 1 ? 'session' : 'sessions'} · page {page.toLocaleString()} of{' '}
          {Math.max(pages, 1).toLocaleString()}
        </p>
        <Button size="sm" onClick={() => setPage(page - 1)} disabled={page <= 1 || query.isPlaceholderData}>
          Previous page
        </Button>
        <Button size="sm" onClick={() => setPage(page + 1)} disabled={page >= pages || query.isPlaceholderData}>
          Next page
        </Button>
      </nav>
    </div>
  );
}
