import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { callsQueryOptions, runningSessionsQueryOptions } from '../../api/calls';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { CallFiltersForm } from './call-filters';
import { CallsTable } from './calls-table';
import { RunningSessions } from './running-sessions';
import { useCallFilters } from './use-call-filters';

const SCOPES = {
  vendor: 'Every call made in your organisation.',
  manager: "Your calls and your team's.",
  member: 'The calls you made.',
} as const;

/** Calls (/calls): the calls the API lets the member see, filtered (kept in the URL), by session, a page at a time. */
export function CallsScreen() {
  const { member } = useSession();
  const role = member?.role ?? 'member';
  const { filters, page, setFilters, setPage, clear, active } = useCallFilters();
  const query = useQuery(callsQueryOptions(filters, page));
  const running = useQuery({ ...runningSessionsQueryOptions(member?.user_id ?? ''), enabled: !!member });
  const runningIds = useMemo(() => new Set((running.data ?? []).map((s) => s.dialsession_id)), [running.data]);

  useEffect(() => {
    document.title = 'Calls · Ringbook';
  }, []);

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-5 px-4 py-5 sm:px-6">
      <PageHeader title="Calls" description={`${SCOPES[role]} Days run midnight to midnight UTC.`} />
      {member && <RunningSessions memberId={member.user_id} />}
      <CallFiltersForm filters={filters} showMember={role !== 'member'} active={active} onChange={setFilters} onClear={clear} />
      {filters.session_id && (
        <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-700">
          Showing the calls of session {filters.session_id}.
          <Button size="sm" variant="ghost" onClick={() => setFilters({ session_id: '' })}>
            Show every session
          </Button>
        </p>
      )}
      <section aria-label="Calls list" className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
        {query.isPending ? (
          <div className="p-4" aria-busy="true">
            <Spinner label="Loading calls…" />
          </div>
        ) : query.isError ? (
          <div className="px-4">
            <ErrorState
              title="Calls could not be loaded"
              message={errorMessage(query.error)}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          </div>
        ) : !query.data.calls.length ? (
          <EmptyState
            title={active ? 'No calls match these filters' : 'No calls yet'}
            action={active ? <Button onClick={clear}>Clear filters</Button> : undefined}
          >
            {active ? 'Try other filters, or clear them.' : 'Calls made in dial sessions appear here.'}
          </EmptyState>
        ) : (
          <div className="flex flex-col" aria-busy={query.isPlaceholderData}>
            <CallsTable
              calls={query.data.calls}
              showMember={role !== 'member'}
              running={runningIds}
              onSession={(id) => setFilters({ session_id: id })}
            />
            <nav
              aria-label="Pages of calls"
              className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-600"
            >
              <p aria-live="polite" className="mr-auto">
                {formatCount(query.data.total_results, 'call', 'calls')} · page {page.toLocaleString()} of{' '}
                {Math.max(query.data.total_pages, 1).toLocaleString()}
              </p>
              <Button size="sm" onClick={() => setPage(page - 1)} disabled={page <= 1 || query.isPlaceholderData}>
                Previous page
              </Button>
              <Button size="sm" onClick={() => setPage(page + 1)} disabled={page >= query.data.total_pages || query.isPlaceholderData}>
                Next page
              </Button>
            </nav>
          </div>
        )}
      </section>
    </div>
  );
}
