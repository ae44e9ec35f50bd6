import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { runningSessionQueryOptions, useEndDialSession } from '../../api/dial-sessions';
import { useSession } from '../auth/use-session';
import { RunningSessionDialog } from './running-session-dialog';
import { dialerPath } from './use-start-dialing';

/**
 * This session could not start because the rep runs another (409, e.g. a redirect_url opened while dialing): the
 * same choice as when starting one, resume that one or end it and start this one. Cancel leaves both as they are.
 */
export function StartBlocked({ onStart }: { onStart: () => void }) {
  const { member } = useSession();
  const running = useQuery({ ...runningSessionQueryOptions(member?.user_id ?? ''), enabled: Boolean(member), staleTime: 0 });
  const end = useEndDialSession();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(false);
  const runningId = running.data?.dialsession_id ?? null;

  /* The other one has ended meanwhile: nothing stands in the way, so this one starts (once). */
  const retried = useRef(false);
  const nothingRuns = running.isSuccess && running.data === null;
  useEffect(() => {
    if (!nothingRuns || retried.current) return;
    retried.current = true;
    onStart();
  }, [nothingRuns, onStart]);

  return (
    <RunningSessionDialog
      runningId={dismissed ? null : runningId}
      onResume={() => void navigate(dialerPath(runningId!))}
      onEndAndStart={() => end.mutate(runningId!, { onSuccess: onStart })}
      onCancel={() => setDismissed(true)}
      busy={end.isPending}
      error={end.error}
    />
  );
}
