import { useQuery } from '@tanstack/react-query';
import type { To } from 'react-router';
import { teamMembersQueryOptions, usageQueryOptions, type DayRange } from '../../api/usage';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { OutcomesChart } from './outcomes-chart';
import { TrendChart } from './trend-chart';
import { describeRange } from './usage-range';
import { formatMinutes, formatNumber, formatRate, totalsOf, usageRows, type UsageRow } from './usage-rows';
import { UsageTable } from './usage-table';

type Props = {
  range: DayRange;
  rep: boolean;
  /** One member's figures (the drill-down), or the team's with a row per member. */
  member: { id: string; name: string } | null;
  /** Where a member's row leads. */
  linkOf: (row: UsageRow) => To | null;
};

function Summary({ totals, label }: { totals: UsageRow; label: string }) {
  const items = [
    ['Calls', formatNumber(totals.calls)],
    ['Connected', formatNumber(totals.connected)],
    ['Connect rate', formatRate(totals.connectRate)],
    ['Talk time', `${formatNumber(totals.talktime)} min`],
    ['Avg talk time', totals.avgTalktime === null ? '—' : `${formatMinutes(totals.avgTalktime)} min`],
  ] as const;
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {items.map(([term, value]) => (
        <div key={term} className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-sm">
          <dt className="text-xs font-medium text-zinc-500">{term}</dt>
          <dd className="mt-1 text-xl font-semibold text-zinc-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The figures of the days shown: a summary, the trend and outcome charts and the table per member, or why there are none. */
export function UsageFigures({ range, rep, member, linkOf }: Props) {
  const figures = useQuery(usageQueryOptions(range));
  const members = useQuery(teamMembersQueryOptions());
  const days = describeRange(range);

  if (figures.isPending || members.isPending) {
    return (
      <section aria-label="Figures" aria-busy="true" className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <Spinner label="Loading usage…" />
      </section>
    );
  }
  if (figures.isError || members.isError) {
    const retry = () => {
      if (figures.isError) void figures.refetch();
      if (members.isError) void members.refetch();
    };
    return (
      <section aria-label="Figures">
        <ErrorState
          title="Usage could not be loaded"
          message={errorMessage(figures.error ?? members.error)}
          onRetry={retry}
          retrying={figures.isFetching || members.isFetching}
        />
      </section>
    );
  }

  const rows = usageRows(figures.data, members.data).filter((r) => !member || r.id === member.id);
  const totals = totalsOf(rows);
  const refreshing = figures.isPlaceholderData;
  const who = member ? `${member.name} made no calls` : rep ? 'You made no calls' : 'No one made a call';
  if (totals.calls === 0 && !refreshing) {
    return (
      <section aria-label="Figures" className="rounded-lg border border-zinc-200 bg-white shadow-sm">
        <EmptyState title="No calls in these days">
          {who} in these days ({days}). Choose other days, or start a dial session from the contacts list.
        </EmptyState>
      </section>
    );
  }

  return (
    <section
      aria-label="Figures"
      aria-busy={refreshing}
      className={`flex flex-col gap-4 transition-opacity ${refreshing ? 'opacity-70' : ''}`}
    >
      <Summary totals={totals} label={member ? `${member.name}'s totals` : rep ? 'Your totals' : 'Team totals'} />
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
        <div className="min-w-0 rounded-lg border border-zinc-200 bg-white shadow-sm">
          <TrendChart range={range} memberId={member?.id ?? null} />
        </div>
        <div className="min-w-0 rounded-lg border border-zinc-200 bg-white shadow-sm">
          <OutcomesChart range={range} memberId={member?.id ?? null} />
        </div>
      </div>
      {!member && (
        <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
          <UsageTable
            rows={rows}
            linkOf={linkOf}
            showTotals={!rep && rows.length > 1}
            caption={`${rep ? 'Your figures' : 'Figures per member'}, ${days}`}
          />
        </div>
      )}
    </section>
  );
}
