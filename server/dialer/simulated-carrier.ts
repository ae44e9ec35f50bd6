/*
 * A phone network in a process, for development, demos, tests and benchmarks. What happens to a call is decided
 * by the last digit of the number dialed, so demo data and tests can pick an outcome:
 *   0-4 a person answers after 3 s of ringing and stays on the line until we hang up;
 *   5-6 an answering machine answers after 4 s, takes a voicemail, and hangs up by itself after 60 s of silence;
 *   7   nobody answers: ringing until the account's ring time runs out;
 *   8   busy after 1 s;  9 'not in service' after 1 s.
 * Every duration is multiplied by the time scale. Timers are unref'd so an idle carrier never keeps a process
 * alive, and close() clears them all.
 */
import type { Carrier, CarrierEvent, CarrierOptions, PlaceCall } from './carrier.js';

type Outcome = { afterSeconds: number; event: Extract<CarrierEvent, { kind: 'answered' | 'busy' | 'failed' }> };

const PERSON: Outcome = { afterSeconds: 3, event: { kind: 'answered', by: 'person' } };
const MACHINE: Outcome = { afterSeconds: 4, event: { kind: 'answered', by: 'machine' } };
const BUSY: Outcome = { afterSeconds: 1, event: { kind: 'busy' } };
const NOT_IN_SERVICE: Outcome = { afterSeconds: 1, event: { kind: 'failed', reason: 'not in service' } };

/** Indexed by the last digit; null means nobody ever answers. */
const BY_LAST_DIGIT: readonly (Outcome | null)[] = [PERSON, PERSON, PERSON, PERSON, PERSON, MACHINE, MACHINE, null, BUSY, NOT_IN_SERVICE];

/** An answering machine nobody talks to records silence for this long, then hangs up. */
const MACHINE_HANGS_UP_AFTER_SECONDS = 60;

const ENDED: CarrierEvent = { kind: 'ended' };

/** A number that does not end in a digit cannot be reached; the engine never dials one, but never throw. */
const outcomeFor = (to: string) => {
  const last = to.at(-1) ?? '';
  return /\d/.test(last) ? (BY_LAST_DIGIT[Number(last)] ?? null) : NOT_IN_SERVICE;
};

const seconds = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

/** 'ending' once a hang-up or the end of a voicemail is decided and its 'ended' is on its way. */
type Phase = 'ringing' | 'answered' | 'playing' | 'ending';
type Call = { phase: Phase; timers: Set<NodeJS.Timeout> };

export function createSimulatedCarrier({ timeScale, onEvent }: CarrierOptions): Carrier {
  if (!(Number.isFinite(timeScale) && timeScale > 0))
    throw new RangeError(`carrier time scale must be a positive number, not ${timeScale}`);
  const calls = new Map<number, Call>();
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

  /* The bookkeeping is done before the listener runs, so a listener that throws cannot leave a call half-ended. */
  function end(callId: number, event: CarrierEvent) {
    const call = calls.get(callId);
    if (call) clearTimers(call);
    calls.delete(callId);
    onEvent(callId, event);
  }

  function reach(callId: number, call: Call, event: Outcome['event']) {
    if (event.kind !== 'answered') return end(callId, event);
    clearTimers(call);
    call.phase = 'answered';
    if (event.by === 'machine') after(MACHINE_HANGS_UP_AFTER_SECONDS, call, () => end(callId, ENDED));
    onEvent(callId, event);
  }

  /** Ends a live call after `delaySeconds`; later hang-ups and voicemails for it are no-ops. */
  function endLater(callId: number, phase: 'playing' | 'ending', delaySeconds: number) {
    const call = calls.get(callId);
    if (!call || call.phase === 'ending') return;
    clearTimers(call);
    call.phase = phase;
    after(delaySeconds, call, () => end(callId, ENDED));
  }

  return {
    placeCall({ callId, to, ringSeconds }: PlaceCall) {
      if (closed || calls.has(callId)) return;
      const call: Call = { phase: 'ringing', timers: new Set() };
      calls.set(callId, call);
      const outcome = outcomeFor(to);
      after(0, call, () => onEvent(callId, { kind: 'ringing' }));
      // Scheduled before the ring timeout so that, at the same instant, the answer wins.
      if (outcome) after(outcome.afterSeconds, call, () => reach(callId, call, outcome.event));
      after(seconds(ringSeconds), call, () => end(callId, { kind: 'no_answer' }));
    },
    hangUp(callId: number) {
      endLater(callId, 'ending', 0);
    },
    playVoicemail(callId: number, recording: { durationSeconds: number }) {
      // A recording can only be played into a call that has been answered and is not already playing one.
      if (calls.get(callId)?.phase !== 'answered') return;
      endLater(callId, 'playing', seconds(recording.durationSeconds));
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      calls.clear();
    },
  };
}
