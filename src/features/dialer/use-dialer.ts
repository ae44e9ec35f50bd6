import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  dialSessionKeys,
  liveQueryOptions,
  useDialAction,
  useDialEvents,
  type DialActionRequest,
  type DialPhase,
  type LiveSnapshot,
  type StreamState,
} from '../../api/dial-sessions';
import { parseApiDate } from '../../lib/format';

/* The words of a 'state' event that name a phase the rep can act in; the others (Busy, Skipped, ...) pass at once. */
const PHASE_OF_STATE: Record<string, DialPhase> = {
  'Ready to call': 'waiting',
  Ringing: 'ringing',
  Connected: 'connected',
  'Answering machine': 'machine',
  'Leaving voicemail': 'playing',
  'Call ended': 'wrapup',
  'Session complete': 'done',
};

const CALL_UP: readonly DialPhase[] = ['ringing', 'connected', 'machine', 'playing'];
const HAS_CALL: readonly DialPhase[] = [...CALL_UP, 'wrapup'];

type StateEvent = { id: number; position: number; call_state: string };

export type Allowed = { call: boolean; skip: boolean; hangup: boolean; dispose: boolean; voicemail: boolean; end: boolean };

/** The result of the contact finished last before the current one, so quick outcomes (Busy) stay visible. */
function lastResult(snapshot: LiveSnapshot): string | null {
  const before = snapshot.position ?? Number.POSITIVE_INFINITY;
  const finished = snapshot.queue.filter((q) => (q.status === 'done' || q.status === 'skipped') && q.position < before);
  const last = finished.at(-1);
  if (!last) return null;
  return last.result || 'No result';
}

/** What the screen shows now: the snapshot, moved on by any 'state' event newer than it. */
function effectiveState(snapshot: LiveSnapshot, latest: StateEvent | null): { callState: string; phase: DialPhase } {
  if (!latest || latest.id <= snapshot.last_event_id) return { callState: snapshot.call_state, phase: snapshot.phase };
  const phase = PHASE_OF_STATE[latest.call_state];
  /* A phase for a contact the snapshot does not show yet allows nothing until the snapshot catches up. */
  const sameContact = latest.position === snapshot.position || phase === 'done';
  return { callState: latest.call_state, phase: phase && sameContact ? phase : 'idle' };
}

/**
 * The dialer's state: the live snapshot (the truth, refetched on every event), the newest call state from the
 * event stream (shown at once), what the phase allows, and the actions. A session still 'ready' is started.
 */
export function useDialer(id: string) {
  const queryClient = useQueryClient();
  const live = useQuery(liveQueryOptions(id));
  const controls = useDialAction(id);
  const [latest, setLatest] = useState<StateEvent | null>(null);
  const [stream, setStream] = useState<StreamState>('connecting');
  /** The server's clock minus ours (the server may run on another clock), learned from each call's start. */
  const [skewMs, setSkewMs] = useState(0);
  const snapshot = live.data;

  /* Events come in bursts (one step writes several): one snapshot read at a time, and one more if any came meanwhile. */
  const refresh = useRef({ running: false, again: false });
  const refreshSnapshot = async () => {
    const r = refresh.current;
    if (r.running) {
      r.again = true;
      return;
    }
    r.running = true;
    try {
      do {
        r.again = false;
        await queryClient.invalidateQueries({ queryKey: dialSessionKeys.live(id) });
      } while (r.again);
    } finally {
      r.running = false;
    }
  };

  // Timers count against the server's clock, which tests and demos may start elsewhere than the wall clock.
  const serverNow = snapshot?.now;
  useEffect(() => {
    const at = parseApiDate(serverNow ?? null);
    if (at) setSkewMs(at.getTime() - Date.now());
  }, [serverNow]);

  useDialEvents(
    id,
    snapshot?.last_event_id,
    (event) => {
      if (event.type === 'state') setLatest({ id: event.id, ...event.data });
      void refreshSnapshot();
    },
    setStream,
  );

  const started = useRef(false);
  const status = snapshot?.session.status;
  const { mutate } = controls;
  useEffect(() => {
    if (status !== 'ready' || started.current) return;
    started.current = true;
    mutate({ action: 'start' });
  }, [status, mutate]);

  const { callState, phase } = snapshot ? effectiveState(snapshot, latest) : { callState: '', phase: 'idle' as DialPhase };
  const idle = controls.isPending || !snapshot || snapshot.session.status === 'ended';
  const allowed: Allowed = {
    call: !idle && phase === 'waiting',
    skip: !idle && phase === 'waiting',
    hangup: !idle && CALL_UP.includes(phase),
    dispose: !idle && HAS_CALL.includes(phase),
    voicemail: !idle && phase === 'machine' && (snapshot?.voicemails.length ?? 0) > 0,
    end: !idle && phase !== 'done',
  };

  return {
    live,
    snapshot,
    callState,
    phase,
    lastResult: snapshot ? lastResult(snapshot) : null,
    allowed,
    stream,
    skewMs,
    act: (request: DialActionRequest, onDone?: () => void) => controls.mutate(request, onDone ? { onSuccess: onDone } : undefined),
    pending: controls.isPending,
    actionError: controls.error,
    clearError: controls.reset,
  };
}

export type Dialer = ReturnType<typeof useDialer>;
