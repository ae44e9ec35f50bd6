import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { teamMembersQueryOptions, UNKNOWN_MEMBER, type DayRange } from '../../api/usage';
import { Spinner } from '../../components/ui/spinner';
import { useSession } from '../auth/use-session';
import { useDrillDown } from './drill-down';
import { LevelHeading } from './level-heading';
import { RangeForm } from './range-form';
import { SessionView } from './session-view';
import { SessionsPanel } from './sessions-panel';
import { UsageBreadcrumbs } from './usage-breadcrumbs';
import { UsageFigures } from './usage-figures';
import type { UsageRow } from './usage-rows';
import { useUsageRange } from './use-usage-range';

const HEADINGS = {
  vendor: { title: 'Usage', scope: 'Everyone in your organisation.' },
  manager: { title: 'Team usage', scope: 'You and everyone on your team.' },
  member: { title: 'Your usage', scope: 'Your own calls and dial sessions.' },
} as const;

type SessionsProps = { range: DayRange; memberId: string | null; names: Map<string, string>; title: string; showMember: boolean };

function Sessions({ range, memberId, names, title, showMember }: SessionsProps) {
  return (
    <section aria-labelledby="usage-sessions" className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
      <h2 id="usage-sessions" className="px-4 pt-4 pb-2 text-base font-semibold text-zinc-900">
        {title}
      </h2>
      <SessionsPanel
        key={`${range.start}/${range.end}/${memberId}`}
        range={range}
        memberId={memberId}
        names={names}
        showMember={showMember}
      />
    </section>
  );
}

/**
 * Managers' usage dashboard: the team's dialing figures for a range of days, the trend of calls per day and the
 * outcomes by disposition, and a drill-down kept in the URL: a member's figures and sessions, a session's calls, each
 * call in the call viewer. A rep sees the same screen over its own calls only (the API answers a rep's own figures).
 */
export function UsageScreen() {
  const { member } = useSession();
  const role = member?.role ?? 'member';
  const rep = role === 'member';
  const heading = HEADINGS[role];
  const { range, today, setRange } = useUsageRange();
  const members = useQuery(teamMembersQueryOptions());
  const names = useMemo(() => new Map((members.data ?? []).map((m) => [m.id, m.name])), [members.data]);
  const current = useMemo(() => new Set((members.data ?? []).filter((m) => !m.removed).map((m) => m.id)), [members.data]);
  const { memberId, sessionId, linkTo } = useDrillDown();
  const memberName = memberId ? (names.get(memberId) ?? UNKNOWN_MEMBER) : '';
  /* A member removed since keeps its row of figures, but its sessions are no longer listed by member. */
  const linkOf = useCallback(
    (row: UsageRow) => (current.has(row.id) ? linkTo({ memberId: row.id, sessionId: null }) : null),
    [current, linkTo],
  );
  /* Steps opened after the screen first showed take the focus; the step a link or reload opens at first does not. */
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
  }, []);

  useEffect(() => {
    document.title = `${memberId ? `${memberName} · ` : ''}${heading.title} · Ringbook`;
  }, [heading.title, memberId, memberName]);

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
          {memberId && <UsageBreadcrumbs root={heading.title} memberName={memberName} />}
          {!memberId ? (
            <>
              <UsageFigures range={range} rep={rep} member={null} linkOf={linkOf} />
              <Sessions
                range={range}
                memberId={null}
                names={names}
                title={rep ? 'Your dial sessions' : 'Dial sessions'}
                showMember={!rep}
              />
            </>
          ) : sessionId ? (
            <SessionView key={sessionId} sessionId={sessionId} memberName={memberName} focus={shown.current} />
          ) : (
            <>
              <LevelHeading key={memberId} focus={shown.current}>
                {memberName}
              </LevelHeading>
              <UsageFigures range={range} rep={rep} member={{ id: memberId, name: memberName }} linkOf={linkOf} />
              <Sessions range={range} memberId={memberId} names={names} title={`${memberName}'s dial sessions`} showMember={false} />
            </>
          )}
        </>
      )}
    </div>
  );
}
