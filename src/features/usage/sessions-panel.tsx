import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { DialSessionRecord } from '../../../server/contracts/dial-sessions';
import { sessionsQueryOptions, type DayRange } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { SessionCalls } from './session-calls';

type Props = {
  range: DayRange;
  /** Member names by id, for the Member column. */
  names: Map<string, string>;
  /** A rep's own sessions need no Member column. */
  showMember: boolean;
};

const endedOf = (s: DialSessionRecord) =>
  s.status === 'ended' ? formatDateTime(s.end_when) : s.status === 'active' ? 'In progress' : 'Not started';

/** The team's dial sessions made in the days shown, newest first, each with its calls on demand. */
export function SessionsPanel({ range, names, showMember }: Props) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const query = useQuery(sessionsQueryOptions(range, page));

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

  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columnCount = showMember ? 6 : 5;

  return (
    <div className="flex flex-col" aria-busy={query.isPlaceholderData}>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">Dial sessions in these days, newest first</caption>
          <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
            <tr className="border-y border-zinc-200">
              <th scope="col" className="px-3 py-2 text-left">
                <span className="sr-only">Calls</span>
              </th>
              {showMember && (
                <th scope="col" className="px-3 py-2 text-left">
                  Member
                </th>
              )}
              <th scope="col" className="px-3 py-2 text-left">
                Started
              </th>
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
              const member = names.get(s.member_id) ?? `Member ${s.member_id}`;
              const label = `${showMember ? `${member}'s session` : 'Session'} ${s.start_when ? `of ${formatDateTime(s.start_when)}` : s.dialsession_id}`;
              const expanded = open.has(s.dialsession_id);
              const panelId = `session-calls-${s.dialsession_id}`;
              return (
                <Fragment key={s.dialsession_id}>
                  <tr className={expanded ? 'bg-indigo-50/40' : 'hover:bg-zinc-50'}>
                    <td className="px-3 py-2">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-expanded={expanded}
                        aria-controls={expanded ? panelId : undefined}
                        onClick={() => toggle(s.dialsession_id)}
                      >
                        <span aria-hidden="true" className={`inline-block transition-transform ${expanded ? 'rotate-90' : ''}`}>
                          ▸
                        </span>
                        {expanded ? 'Hide calls' : 'Show calls'}
                        <span className="sr-only"> of {label}</span>
                      </Button>
                    </td>
                    {showMember && (
                      <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-900">
                        {member}
                      </th>
                    )}
                    <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatDateTime(s.start_when, 'Not started')}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{endedOf(s)}</td>
                    <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{s.contact_count.toLocaleString()}</td>
                    <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{s.call_count.toLocaleString()}</td>
                  </tr>
                  {expanded && (
                    <tr id={panelId}>
                      <td colSpan={columnCount} className="bg-zinc-50 px-3 py-3">
                        <SessionCalls sessionId={s.dialsession_id} label={`Calls of ${label}`} />
                      </td>
                    </tr>
                  )}
                </Fragment>
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
