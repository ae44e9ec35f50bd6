/*
 * The simulated phone network: what happens to each call, decided by the last digit of the number dialed, so demo
 * data and tests can pick an outcome:
 *   0-4 a person answers after 3 s of ringing and stays on the line until we hang up;
 *   5-6 an answering machine answers after 4 s, takes a voicemail, and hangs up by itself after 60 s of silence;
 *   7   nobody answers: ringing until the account's ring time runs out;
 *   8   busy after 1 s;  9 'not in service' after 1 s.
 * Every duration is multiplied by the time scale. Timers are unref'd so an idle network never keeps a process alive,
 * and close() clears them all. A call that ends after being answered is handed to `onEnded` with its timeline, which
 * the carrier service turns into a recording.
 */

export type NetworkEvent =
  | { kind: 'ringing' }
  | { kind: 'answered'; by: 'person' | 'machine' }
  | { kind: 'busy' }
  | { kind: 'no_answer' }
  | { kind: 'failed'; reason: string }
  /** A call that was answered, or cancelled while ringing, has ended. */
  | { kind: 'ended' };

export const isTerminal = (event: NetworkEvent) => event.kind !== 'ringing' && event.kind !== 'answered';

/** What happened on an answered call, in real milliseconds: the recorder builds its audio from it. */
export type Timeline = {
  callId: string;
  to: string;
  answeredAtMs: number;
  by: 'person' | 'machine';
  endedAtMs: number;
  /** A voicemail dropped into the machine: the audio's address and when it started playing. */
  voicemail: { audioUrl: string; startedAtMs: number; durationSeconds: number } | null;
};

export type NetworkOptions = {
  /** Multiplies every simulated duration (CARRIER_TIME_SCALE): 1 in production, 0.02 in tests. */
  timeScale: number;
  /** Every event, with the real time it happened; it must not throw (it runs from a timer). */
  onEvent: (callId: string, event: NetworkEvent, atMs: number) => void;
  /** An answered call has ended. */
  onEnded?: (timeline: Timeline) => void;
  /**
   * When an answering machine's beep ends, in simulated seconds from its answer (its greeting's length: the recorder
   * knows it). A voicemail dropped before then waits for the beep, as a carrier's drop does, and plays whole. 0: no wait.
   */
  beepEndSeconds?: () => number;
};

export type PlaceOptions = { callId: string; to: string; ringSeconds: number; timeLimitSeconds?: number };

export type Network = {
  placeCall(call: PlaceOptions): void;
  /** Ends the call, or cancels a ringing one: 'ended'. Unknown or finished calls: nothing. */
  hangUp(callId: string): void;
  /** Plays a recording into a call a machine answered, then ends it: 'ended'. */
  playVoicemail(callId: string, recording: { durationSeconds: number; audioUrl?: string }): void;
  /** Whether the network knows the call (it has not ended). */
  has(callId: string): boolean;
  close(): void;
};

type Outcome = { afterSeconds: number; event: Extract<NetworkEvent, { kind: 'answered' | 'busy' | 'failed' }> };

const PERSON: Outcome = { afterSeconds: 3, event: { kind: 'answered', by: 'person' } };
const MACHINE: Outcome = { afterSeconds: 4, event: { kind: 'answered', by: 'machine' } };
const BUSY: Outcome = { afterSeconds: 1, event: { kind: 'busy' } };
const NOT_IN_SERVICE: Outcome = { afterSeconds: 1, event: { kind: 'failed', reason: 'not in service' } };

/** Indexed by the last digit; null means nobody ever answers. */
const BY_LAST_DIGIT: readonly (Outcome | null)[] = [PERSON, PERSON, PERSON, PERSON, PERSON, MACHINE, MACHINE, null, BUSY, NOT_IN_SERVICE];

/** An answering machine nobody talks to records silence for this long, then hangs up. */
const MACHINE_HANGS_UP_AFTER_SECONDS = 60;
/**
 * Nor sooner than this in real time, whatever the time scale: a rep's Drop voicemail has its own way to travel (at 0.02
 * the machine hung up 1.2 s after answering, before a drop sent at once reached it on a loaded machine).
 */
const MACHINE_WAITS_AT_LEAST_MS = 15_000;

const ENDED: NetworkEvent = { kind: 'ended' };

const outcomeFor = (to: string) => {
  const last = to.at(-1) ?? '';
  return /\d/.test(last) ? (BY_LAST_DIGIT[Number(last)] ?? null) : NOT_IN_SERVICE;
};

const seconds = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

/** 'ending' once a hang-up or the end of a voicemail is decided and its 'ended' is on its way. */
type Phase = 'ringing' | 'answered' | 'playing' | 'ending';
type Call = {
  to: string;
  phase: Phase;
  timers: Set<NodeJS.Timeout>;
  /** The time limit's timer, apart from the others: answering or playing clears those, never this. */
  limit?: NodeJS.Timeout;
  answered?: { atMs: number; by: 'person' | 'machine' };
  voicemail?: Timeline['voicemail'];
};

export function createNetwork({ timeScale, onEvent, onEnded, beepEndSeconds = () => 0 }: NetworkOptions): Network {
  if (!(Number.isFinite(timeScale) && timeScale > 0))
    throw new RangeError(`carrier time scale must be a positive number, not ${timeScale}`);
  const calls = new Map<string, Call>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function after(delaySeconds: number, call: Call, run: () => void) {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        call.timers.delete(timer);
        run();
      },
      Math.round(delaySeconds * 1000 * timeScale),
    );
    timer.unref();
    timers.add(timer);
    call.timers.add(timer);
  }

  function clearTimers(call: Call) {
    for (const timer of call.timers) {
      clearTimeout(timer);
      timers.delete(timer);
    }
    call.timers.clear();
  }

  /* The bookkeeping is done before the listeners run, so a listener that throws cannot leave a call half-ended. */
  function end(callId: string, event: NetworkEvent) {
    const call = calls.get(callId);
    if (!call) return;
    clearTimers(call);
    if (call.limit) {
      clearTimeout(call.limit);
      timers.delete(call.limit);
    }
    calls.delete(callId);
    const atMs = Date.now();
    onEvent(callId, event, atMs);
    if (call.answered && onEnded) {
      onEnded({
        callId,
        to: call.to,
        answeredAtMs: call.answered.atMs,
        by: call.answered.by,
        endedAtMs: atMs,
        voicemail: call.voicemail ?? null,
      });
    }
  }

  function reach(callId: string, call: Call, event: Outcome['event']) {
    if (event.kind !== 'answered') return end(callId, event);
    clearTimers(call);
    call.phase = 'answered';
    call.answered = { atMs: Date.now(), by: event.by };
    if (event.by === 'machine') {
      after(Math.max(MACHINE_HANGS_UP_AFTER_SECONDS, MACHINE_WAITS_AT_LEAST_MS / 1000 / timeScale), call, () => end(callId, ENDED));
    }
    onEvent(callId, event, call.answered.atMs);
  }

  /** Ends a live call after `delaySeconds`; later hang-ups and voicemails for it are no-ops. */
  function endLater(callId: string, phase: 'playing' | 'ending', delaySeconds: number) {
    const call = calls.get(callId);
    if (!call || call.phase === 'ending') return;
    clearTimers(call);
    call.phase = phase;
    after(delaySeconds, call, () => end(callId, ENDED));
  }

  return {
    placeCall({ callId, to, ringSeconds, timeLimitSeconds }: PlaceOptions) {
      if (closed || calls.has(callId)) return;
      const call: Call = { to, phase: 'ringing', timers: new Set() };
      calls.set(callId, call);
      const outcome = outcomeFor(to);
      after(0, call, () => onEvent(callId, { kind: 'ringing' }, Date.now()));
      // Scheduled before the ring timeout so that, at the same instant, the answer wins.
      if (outcome) after(outcome.afterSeconds, call, () => reach(callId, call, outcome.event));
      after(seconds(ringSeconds), call, () => end(callId, { kind: 'no_answer' }));
      // Past the time limit the network ends the call whatever its state (a lost hang-up cannot keep a line open).
      // Not scaled: it guards real time.
      if (timeLimitSeconds) {
        call.limit = setTimeout(() => end(callId, ENDED), timeLimitSeconds * 1000).unref();
        timers.add(call.limit);
      }
    },
    hangUp(callId: string) {
      endLater(callId, 'ending', 0);
    },
    playVoicemail(callId: string, recording: { durationSeconds: number; audioUrl?: string }) {
      // A recording can only be played into a call that has been answered and is not already playing one.
      const call = calls.get(callId);
      if (call?.phase !== 'answered') return;
      const durationSeconds = seconds(recording.durationSeconds);
      call.voicemail = recording.audioUrl ? { audioUrl: recording.audioUrl, startedAtMs: Date.now(), durationSeconds } : null;
      const sinceAnswer = call.answered ? (Date.now() - call.answered.atMs) / 1000 / timeScale : 0;
      endLater(callId, 'playing', Math.max(0, seconds(beepEndSeconds()) - sinceAnswer) + durationSeconds);
    },
    has: (callId: string) => calls.has(callId),
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      calls.clear();
    },
  };
}
