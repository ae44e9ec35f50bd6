import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionCallsQueryOptions } from '../../api/usage';
import { useDrillDown } from './drill-down';
import { sessionTitle } from './sessions-panel';

type Props = { root: string; memberName: string };

const LINK = 'text-indigo-700 underline-offset-2 hover:underline focus-visible:underline';

/** Where the drill-down stands: the team › a member › a session; each step before the last leads back to it. */
export function UsageBreadcrumbs({ root, memberName }: Props) {
  const { memberId, sessionId, linkTo } = useDrillDown();
  const session = useQuery({ ...sessionCallsQueryOptions(sessionId ?? '', 1), enabled: sessionId !== null });
  const steps = [
    { label: root, to: linkTo({ memberId: null, sessionId: null }) },
    { label: memberName, to: linkTo({ memberId, sessionId: null }) },
    ...(sessionId ? [{ label: session.data ? sessionTitle(session.data.session) : `Session ${sessionId}`, to: null }] : []),
  ];
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-zinc-600">
        {steps.map((step, i) => {
          const last = i === steps.length - 1;
          return (
            <li key={i} className="flex items-center gap-2">
              {i > 0 && (
                <span aria-hidden="true" className="text-zinc-400">
                  ›
                </span>
              )}
              {last ? (
                <span aria-current="page" className="font-medium text-zinc-900">
                  {step.label}
                </span>
              ) : (
                <Link to={step.to!} className={LINK}>
                  {step.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
