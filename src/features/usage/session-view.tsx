import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sessionCallsQueryOptions } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { LevelHeading } from './level-heading';
import { SessionCalls } from './session-calls';
import { sessionTitle } from './sessions-panel';

const STATUS = { ready: 'Not started', active: 'In progress', ended: 'Ended' } as const;

type Props = { sessionId: string; memberName: string; focus: boolean };

/** The drill-down's last step: one session, what it was, and its calls a page at a time, each opening the call viewer. */
export function SessionView({ sessionId, memberName, focus }: Props) {
  const [page, setPage] = useState(1);
  const query = useQuery(sessionCallsQueryOptions(sessionId, page));
  const title = query.data ? sessionTitle(query.data.session) : `Session ${sessionId}`;

  return (
    <section aria-label={title} className="flex flex-col gap-3 overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
      <div className="px-4 pt-4">
        <LevelHeading focus={focus}>{title}</LevelHeading>
        <p className="text-sm text-zinc-600">{memberName}</p>
      </div>
      {query.isPending ? (
        <div className="p-4" aria-busy="true">
          <Spinner label="Loading calls…" />
        </div>
      ) : query.isError ? (
        <div className="px-4 pb-4">
          <ErrorState
            title="The session could not be loaded"
            message={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 px-4 text-sm sm:grid-cols-4">
            {[
              ['Status', STATUS[query.data.session.status]],
              ['Ended', formatDateTime(query.data.session.end_when)],
              ['Contacts', query.data.session.contact_count.toLocaleString()],
              ['Calls', query.data.total_results.toLocaleString()],
            ].map(([term, value]) => (
              <div key={term}>
                <dt className="text-xs font-medium text-zinc-500">{term}</dt>
                <dd className="text-zinc-900 tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          {query.data.calls.length ? (
            <div aria-busy={query.isPlaceholderData}>
              <SessionCalls calls={query.data.calls} label={`Calls of ${memberName}'s ${title.replace(/^Session/, 'session')}`} />
            </div>
          ) : (
            <EmptyState title="No calls in this session">No contact was called before the session ended.</EmptyState>
          )}
          {query.data.total_pages > 1 && (
            <nav
              aria-label="Pages of calls"
              className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-600"
            >
              <p aria-live="polite" className="mr-auto">
                Calls {((page - 1) * query.data.page_size + 1).toLocaleString()}–
                {Math.min(page * query.data.page_size, query.data.total_results).toLocaleString()} of{' '}
                {query.data.total_results.toLocaleString()}
              </p>
              <Button size="sm" onClick={() => setPage(page - 1)} disabled={page <= 1 || query.isPlaceholderData}>
                Previous calls
              </Button>
              <Button size="sm" onClick={() => setPage(page + 1)} disabled={page >= query.data.total_pages || query.isPlaceholderData}>
                Next calls
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
