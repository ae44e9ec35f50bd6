import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { teamMembersQueryOptions } from '../../api/usage';
import { Spinner } from '../../components/ui/spinner';
import { useSession } from '../auth/use-session';
import { RangeForm } from './range-form';
import { SessionsPanel } from './sessions-panel';
import { UsageFigures } from './usage-figures';
import { useUsageRange } from './use-usage-range';

const HEADINGS = {
  vendor: { title: 'Usage', scope: 'Everyone in your organisation.' },
  manager: { title: 'Team usage', scope: 'You and everyone on your team.' },
  member: { title: 'Your usage', scope: 'Your own calls and dial sessions.' },
} as const;

/**
 * Managers' usage dashboard: the team's dialing figures for a range of days, a chart of calls against connected
 * calls, and the team's dial sessions with their calls. A rep sees the same screen with only its own row and
 * sessions (the API answers a rep's own figures), without a totals row or a Member column.
 */
export function UsageScreen() {
  const { member } = useSession();
  const role = member?.role ?? 'member';
  const rep = role === 'member';
  const heading = HEADINGS[role];
  const { range, today, setRange } = useUsageRange();
  const members = useQuery(teamMembersQueryOptions());
  const names = useMemo(() => new Map((members.data ?? []).map((m) => [m.id, m.name])), [members.data]);

  useEffect(() => {
    document.title = `${heading.title} · Ringbook`;
  }, [heading.title]);

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-5 px-4 py-5 sm:px-6">
      <header>
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{heading.title}</h1>
        <p className="text-sm text-zinc-600">{heading.scope} Days run midnight to midnight UTC, as the API counts them.</p>
      </header>
      {!range ? (
        <div aria-busy="true">
          <Spinner label="Loading usage…" />
        </div>
      ) : (
        <>
          <RangeForm range={range} today={today} onApply={setRange} />
          <UsageFigures range={range} rep={rep} />
          <section aria-labelledby="usage-sessions" className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
            <h2 id="usage-sessions" className="px-4 pt-4 pb-2 text-base font-semibold text-zinc-900">
              {rep ? 'Your dial sessions' : 'Dial sessions'}
            </h2>
            <SessionsPanel key={`${range.start}/${range.end}`} range={range} names={names} showMember={!rep} />
          </section>
        </>
      )}
    </div>
  );
}
