import { useEffect, useState, type Ref } from 'react';
import type { DialPhase, LiveSnapshot, StreamState } from '../../api/dial-sessions';
import { parseApiDate } from '../../lib/format';

const LIVE_PHASES: readonly DialPhase[] = ['ringing', 'connected', 'machine', 'playing'];

function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Ticks every second while `running`, answering the current time. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

/** Time since the call was placed, and talk time once a person answered; times are the server's, `skewMs` aligns them. */
function CallTimer({ call, phase, skewMs }: { call: LiveSnapshot['call']; phase: DialPhase; skewMs: number }) {
  const running = call !== null && !call.end_when && LIVE_PHASES.includes(phase);
  const now = useNow(running) + skewMs;
  if (!call) return null;
  const start = parseApiDate(call.start_when)?.getTime();
  const end = parseApiDate(call.end_when)?.getTime() ?? now;
  const connected = call.connected === '1' ? parseApiDate(call.connected_when)?.getTime() : undefined;
  if (start === undefined) return null;
  return (
    <div role="timer" aria-label="Call timer" className="flex gap-4 font-mono text-sm text-zinc-700 tabular-nums">
      <span>
        <span className="font-sans text-zinc-500">Call </span>
        {clock(end - start)}
      </span>
      {connected !== undefined && (
        <span>
          <span className="font-sans text-zinc-500">Talk </span>
          {clock(end - connected)}
        </span>
      )}
    </div>
  );
}

function Progress({ progress }: { progress: LiveSnapshot['progress'] }) {
  const { finished, total, connected, skipped } = progress;
  const percent = total > 0 ? Math.round((finished / total) * 100) : 0;
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label="Session progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={finished}
        aria-valuetext={`${finished} of ${total}`}
        className="h-2 overflow-hidden rounded-full bg-zinc-200"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-zinc-600">
        <span className="font-medium text-zinc-900">
          {finished} of {total}
        </span>{' '}
        done · {connected} connected · {skipped} skipped
      </p>
    </div>
  );
}

type Props = {
  snapshot: LiveSnapshot;
  callState: string;
  phase: DialPhase;
  lastResult: string | null;
  contactName: string | null;
  stream: StreamState;
  skewMs: number;
  statusRef: Ref<HTMLParagraphElement>;
};

/** The call state as a live region (with the last contact's result), the call timer and the session's progress. */
export function CallStatus({ snapshot, callState, phase, lastResult, contactName, stream, skewMs, statusRef }: Props) {
  const tone = phase === 'connected' ? 'text-emerald-700' : phase === 'done' ? 'text-indigo-700' : 'text-zinc-900';
  return (
    <section aria-label="Call" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <p
          ref={statusRef}
          tabIndex={-1}
          role="status"
          aria-label="Call status"
          aria-live="polite"
          aria-atomic="true"
          className="flex flex-wrap items-baseline gap-x-2 text-lg font-semibold focus:outline-none"
        >
          <span className={tone}>{callState}</span>
          {contactName && phase !== 'done' && <span className="font-normal text-zinc-600">— {contactName}.</span>}
          {lastResult && <span className="text-sm font-normal text-zinc-500">Last: {lastResult}</span>}
        </p>
        <CallTimer call={snapshot.call} phase={phase} skewMs={skewMs} />
      </div>
      <Progress progress={snapshot.progress} />
      {stream === 'reconnecting' && <p className="text-xs text-amber-700">Live updates were interrupted; reconnecting…</p>}
      {stream === 'closed' && (
        <p className="text-xs text-amber-700">
          Live updates stopped.{' '}
          <button type="button" className="underline" onClick={() => window.location.reload()}>
            Reload the dialer
          </button>
        </p>
      )}
    </section>
  );
}
