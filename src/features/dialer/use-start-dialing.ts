import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  fetchRunningSession,
  useCreateDialSession,
  useEndDialSession,
  type CreatedDialSession,
  type DialSessionBody,
} from '../../api/dial-sessions';
import { useSession } from '../auth/use-session';

/** A session to make: whom it dials, and for a phone link the number to call as soon as it is up. */
export type StartRequest = { body: DialSessionBody; phone?: string };
type Attempt = StartRequest & { key: string };

/* getRandomValues, unlike randomUUID, also works on a plain-http address other than localhost. */
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The dialer of a session; `call` places the call to that number once the session is up (a phone link). */
export function dialerPath(id: string, call?: string): string {
  return `/dialer/${encodeURIComponent(id)}${call ? `?call=${encodeURIComponent(call)}` : ''}`;
}

/**
 * Starting a dial session from anywhere: first asks whether the rep already runs one (the server allows one at a
 * time). If so nothing is made until the rep chooses, in RunningSessionDialog, to resume that one or to end it and
 * start this one. `open` goes to the new session (by default the dialer, in this page).
 */
export function useStartDialing(open?: (created: CreatedDialSession, request: StartRequest) => void) {
  const { member } = useSession();
  const navigate = useNavigate();
  const create = useCreateDialSession();
  const end = useEndDialSession();
  const [checking, setChecking] = useState(false);
  const [conflict, setConflict] = useState<{ request: Attempt; runningId: string } | null>(null);
  const [checkError, setCheckError] = useState<unknown>(null);

  const go = async (request: Attempt) => {
    const created = await create.mutateAsync({ body: request.body, key: request.key });
    if (open) open(created, request);
    else void navigate(dialerPath(created.dialsession_id, request.phone));
  };

  /* One key per press: a retry of this start answers the same session; the next press makes a new one. */
  const start = async (asked: StartRequest) => {
    const request = { ...asked, key: newKey() };
    setCheckError(null);
    create.reset();
    setChecking(true);
    try {
      const running = member ? await fetchRunningSession(member.user_id) : null;
      if (running) setConflict({ request, runningId: running.dialsession_id });
      else await go(request);
    } catch (error) {
      setCheckError(error);
    } finally {
      setChecking(false);
    }
  };

  const endAndStart = async () => {
    if (!conflict) return;
    try {
      await end.mutateAsync(conflict.runningId);
      await go(conflict.request);
      setConflict(null);
    } catch {
      /* Shown in the dialog (end.error / create.error); the rep may try again or cancel. */
    }
  };

  return {
    start: (request: StartRequest) => void start(request),
    busy: checking || create.isPending,
    error: checkError ?? (conflict ? null : create.error),
    dismissError: () => {
      setCheckError(null);
      create.reset();
    },
    conflict: {
      runningId: conflict?.runningId ?? null,
      onResume: () => {
        const id = conflict?.runningId;
        setConflict(null);
        if (id) void navigate(dialerPath(id));
      },
      onEndAndStart: () => void endAndStart(),
      onCancel: () => {
        end.reset();
        create.reset();
        setConflict(null);
      },
      busy: end.isPending || create.isPending,
      error: end.error ?? create.error,
    },
  };
}
