/*
 * The dial session as a state machine: state + input -> state + effects. It knows no clock, store, carrier or HTTP:
 * the dial-sessions service reads the state, feeds an input with the time and settings, applies the effects in
 * order in one transaction (calls, results, callbacks, events), and talks to the carrier after the commit. Every
 * effect that waits on the carrier also sets a wake-up time, so a lost carrier event ends the call there instead of
 * hanging the session.
 *
 * Callbacks follow from the order of effects: for each contact 'display' (api_contact_displayed), then 'dial'
 * (api_callbegin), and once its call is dispositioned 'callDone' (api_calldone), which waits for the next contact's
 * 'display' (or the end of the session), as integrations expect.
 */
import type { CarrierEvent } from './carrier.js';
import { type CallingWindow, type SkipFacts, type SkipReason, skipReason } from './skip-rules.js';

/**
 * idle: between contacts (the next one is being brought up) or not started; waiting: preview mode, the contact is
 * shown and no call placed; ringing: a call is placed and nobody answered yet; connected: a person is on the line;
 * machine: an answering machine is; playing: a voicemail is being dropped; wrapup: the call ended and waits for the
 * rep's disposition; done: the session is over.
 */
export type Phase = 'idle' | 'waiting' | 'ringing' | 'connected' | 'machine' | 'playing' | 'wrapup' | 'done';

export type SessionState = {
  status: 'ready' | 'active' | 'ended';
  mode: 'power' | 'preview';
  position: number;
  count: number;
  phase: Phase;
  wakeAtMs: number | null;
  pendingDone: number | null;
};

export type DispositionChoice = { id: number; label: string; key: string; connected: boolean };
export type AutoDisposition = 'noanswer' | 'busy' | 'badphone' | 'voicemail';
export type Recording = { id: number; name: string; durationSeconds: number };
/**
 * `missing`: deleted or trashed since the session was made; `dialedBefore`: called earlier in this session. Both are
 * passed over without a result. `moved`: no longer the member's to reach (transferred out of its team): passed over
 * with a note on the queue, and nothing of it told to the session's callbacks.
 */
export type ContactFacts = SkipFacts & { dialedBefore: boolean; missing: boolean; moved: boolean };

/** What the queue says of a contact passed over because it left the member's reach. */
export const MOVED_NOTE = 'No longer in your contacts';

export type Input =
  | { type: 'start' }
  | { type: 'arrive'; position: number; facts: ContactFacts }
  | { type: 'call' }
  | { type: 'hangup' }
  | { type: 'skip' }
  /** The contact waiting in preview left the member's reach before it was called. */
  | { type: 'withdraw' }
  | { type: 'disposition'; disposition: DispositionChoice }
  | { type: 'voicemail'; recording: Recording }
  /** `at`: when it happened, as the carrier says (the recorded times and durations are the real ones). */
  | { type: 'carrier'; position: number; event: CarrierEvent; at?: string }
  | { type: 'wake' }
  | { type: 'end' };

/** The words the dialer screen shows in its live region. */
export type CallState =
  | 'Ringing'
  | 'Connected'
  | 'Answering machine'
  | 'No answer'
  | 'Busy'
  | 'Not in service'
  | 'Skipped'
  | 'Session complete'
  | 'Ready to call'
  | 'Call ended'
  | 'Leaving voicemail'
  | 'Voicemail left';

export type Effect =
  | { type: 'load'; position: number }
  | { type: 'display'; position: number }
  | { type: 'skipped'; position: number; reason: SkipReason | null; report: boolean; note?: string }
  | { type: 'dial'; position: number }
  | { type: 'hangup'; position: number }
  | { type: 'playVoicemail'; position: number; recording: Recording }
  | { type: 'answered'; position: number; by: 'person' | 'machine' }
  | { type: 'callEnded'; position: number; hangupStatus: string }
  | { type: 'dispositioned'; position: number; disposition: DispositionChoice | null; auto: boolean }
  | { type: 'callDone'; position: number }
  | { type: 'ended' }
  | { type: 'publish'; position: number; callState: CallState };

export type Settings = {
  nowMs: number;
  ringSeconds: number;
  window: CallingWindow;
  sendSkips: boolean;
  /** CARRIER_TIME_SCALE: the wake-ups scale with the simulated carrier's durations. */
  timeScale: number;
  auto: (key: AutoDisposition) => DispositionChoice | null;
};

export type Step = { state: SessionState; effects: Effect[]; rejected?: string };

/** Seconds past the time a carrier event is due before the engine stops waiting for it. */
const GRACE_SECONDS = 15;

const CALL_UP: readonly Phase[] = ['ringing', 'connected', 'machine', 'playing'];
const HAS_CALL: readonly Phase[] = [...CALL_UP, 'wrapup'];

export function step(state: SessionState, input: Input, s: Settings): Step {
  if (state.status === 'ended') return reject(state, 'The dial session has ended.');
  if (input.type === 'start') return start(state);
  // A session never started may be ended too (its member removed, or the rep giving it up): nothing was called.
  if (input.type === 'end' && state.status === 'ready') return finish(state, []);
  if (state.status !== 'active') return reject(state, 'The dial session has not started.');
  switch (input.type) {
    case 'arrive':
      return input.position === state.position && state.phase === 'idle' ? arrive(state, input.facts, s) : ignore(state);
    case 'call':
      return state.phase === 'waiting' ? dial(state, [], s) : reject(state, 'A call can be placed only while a contact waits in preview.');
    case 'hangup':
      return CALL_UP.includes(state.phase) ? hangUp(state) : reject(state, 'There is no call to hang up.');
    case 'skip':
      return state.phase === 'waiting'
        ? advance(state, [{ type: 'skipped', position: state.position, reason: 'Manual', report: s.sendSkips }, publish(state, 'Skipped')])
        : reject(state, 'Only a contact that has not been called can be skipped.');
    case 'withdraw':
      return state.phase === 'waiting' ? passOverMoved(state) : reject(state, 'Only a contact that has not been called can be withdrawn.');
    case 'disposition':
      return HAS_CALL.includes(state.phase) ? dispose(state, input.disposition, false) : reject(state, 'There is no call to disposition.');
    case 'voicemail':
      return state.phase === 'machine'
        ? dropVoicemail(state, input.recording, s)
        : reject(state, 'A voicemail can be dropped only when an answering machine has answered.');
    case 'carrier':
      return input.position === state.position ? carrier(state, input.event, s) : ignore(state);
    case 'wake':
      return state.wakeAtMs !== null && s.nowMs >= state.wakeAtMs ? wake(state, s) : ignore(state);
    case 'end':
      return end(state);
  }
}

const ignore = (state: SessionState): Step => ({ state, effects: [] });
const reject = (state: SessionState, reason: string): Step => ({ state, effects: [], rejected: reason });
const publish = (state: SessionState, callState: CallState): Effect => ({ type: 'publish', position: state.position, callState });

function start(state: SessionState): Step {
  if (state.status === 'active') return ignore(state);
  const started: SessionState = { ...state, status: 'active', position: 0, phase: 'idle' };
  return state.count > 0 ? { state: started, effects: [{ type: 'load', position: 0 }] } : finish(started, []);
}

/** The contact at the current position has come up: skip it by the rules, or show it (and dial it in power mode). */
function arrive(state: SessionState, facts: ContactFacts, s: Settings): Step {
  if (facts.moved) return passOverMoved(state);
  if (facts.dialedBefore || facts.missing)
    return advance(state, [{ type: 'skipped', position: state.position, reason: null, report: false }]);
  const reason = skipReason(facts, s.window, new Date(s.nowMs));
  if (reason)
    return advance(state, [{ type: 'skipped', position: state.position, reason, report: s.sendSkips }, publish(state, 'Skipped')]);
  const effects: Effect[] = [{ type: 'display', position: state.position }, ...flushDone(state)];
  const shown = { ...state, pendingDone: null };
  if (state.mode === 'power') return dial(shown, effects, s);
  return { state: { ...shown, phase: 'waiting' }, effects: [...effects, publish(state, 'Ready to call')] };
}

const passOverMoved = (state: SessionState): Step =>
  advance(state, [{ type: 'skipped', position: state.position, reason: null, report: false, note: MOVED_NOTE }, publish(state, 'Skipped')]);

const flushDone = (state: SessionState): Effect[] =>
  state.pendingDone === null ? [] : [{ type: 'callDone', position: state.pendingDone }];

/**
 * When to give up on the carrier's word: after `seconds` of the carrier's (scaled) time, then GRACE_SECONDS of real
 * time, for its events' way here, which no time scale shortens (at 0.02 a scaled grace was under a second, less than
 * an event can take on a loaded machine: answered calls ended as no answer). A whole millisecond, as the store keeps
 * it (an integer column; PostgreSQL's bigint refused a voicemail's fractional duration with a 500).
 */
const giveUpAfter = (s: Settings, seconds: number) => Math.ceil(s.nowMs + (seconds * s.timeScale + GRACE_SECONDS) * 1000);

function dial(state: SessionState, before: Effect[], s: Settings): Step {
  const wakeAtMs = giveUpAfter(s, s.ringSeconds);
  return {
    state: { ...state, phase: 'ringing', wakeAtMs },
    effects: [...before, { type: 'dial', position: state.position }, publish(state, 'Ringing')],
  };
}

function hangUp(state: SessionState): Step {
  const { position } = state;
  return {
    state: { ...state, phase: 'wrapup', wakeAtMs: null },
    effects: [
      { type: 'hangup', position },
      { type: 'callEnded', position, hangupStatus: state.phase === 'ringing' ? 'cancelled' : 'completed' },
      publish(state, 'Call ended'),
    ],
  };
}

function dropVoicemail(state: SessionState, recording: Recording, s: Settings): Step {
  const wakeAtMs = giveUpAfter(s, recording.durationSeconds);
  return {
    state: { ...state, phase: 'playing', wakeAtMs },
    effects: [{ type: 'playVoicemail', position: state.position, recording }, publish(state, 'Leaving voicemail')],
  };
}

const OUTCOMES: Record<'busy' | 'no_answer' | 'failed', [AutoDisposition, CallState, string]> = {
  busy: ['busy', 'Busy', 'busy'],
  no_answer: ['noanswer', 'No answer', 'no answer'],
  failed: ['badphone', 'Not in service', 'not in service'],
};

function carrier(state: SessionState, event: CarrierEvent, s: Settings): Step {
  const { position, phase } = state;
  // Dialing already showed Ringing.
  if (event.kind === 'ringing') return ignore(state);
  if (event.kind === 'answered') {
    if (phase !== 'ringing') return ignore(state);
    const next: Phase = event.by === 'person' ? 'connected' : 'machine';
    return {
      state: { ...state, phase: next, wakeAtMs: null },
      effects: [{ type: 'answered', position, by: event.by }, publish(state, event.by === 'person' ? 'Connected' : 'Answering machine')],
    };
  }
  if (event.kind === 'ended') return callEnded(state, s);
  if (phase !== 'ringing') return ignore(state);
  const [auto, callState, hangupStatus] = OUTCOMES[event.kind];
  return autoDispose(state, auto, callState, hangupStatus, s);
}

/** The other end hung up, or a dropped voicemail finished playing. */
function callEnded(state: SessionState, s: Settings): Step {
  if (state.phase === 'playing') return autoDispose(state, 'voicemail', 'Voicemail left', 'voicemail left', s);
  if (state.phase !== 'connected' && state.phase !== 'machine') return ignore(state);
  return {
    state: { ...state, phase: 'wrapup', wakeAtMs: null },
    effects: [{ type: 'callEnded', position: state.position, hangupStatus: 'hung up' }, publish(state, 'Call ended')],
  };
}

function autoDispose(state: SessionState, key: AutoDisposition, callState: CallState, hangupStatus: string, s: Settings): Step {
  const { position } = state;
  const effects: Effect[] = [
    { type: 'callEnded', position, hangupStatus },
    { type: 'dispositioned', position, disposition: s.auto(key), auto: true },
    publish(state, callState),
  ];
  return advance({ ...state, pendingDone: position }, effects);
}

function dispose(state: SessionState, disposition: DispositionChoice, auto: boolean): Step {
  const { position } = state;
  const closing: Effect[] = CALL_UP.includes(state.phase)
    ? [
        { type: 'hangup', position },
        { type: 'callEnded', position, hangupStatus: 'completed' },
      ]
    : [];
  return advance({ ...state, pendingDone: position }, [...closing, { type: 'dispositioned', position, disposition, auto }]);
}

/** A ringing call whose outcome never came (the carrier lost it) ends as no answer; a voicemail that never ended, as left. */
function wake(state: SessionState, s: Settings): Step {
  if (state.phase === 'playing') return callEnded(state, s);
  if (state.phase !== 'ringing') return ignore({ ...state, wakeAtMs: null });
  const step = autoDispose(state, 'noanswer', 'No answer', 'no answer (no word from the carrier)', s);
  return { ...step, effects: [{ type: 'hangup', position: state.position }, ...step.effects] };
}

function advance(state: SessionState, effects: Effect[]): Step {
  const position = state.position + 1;
  const moved: SessionState = { ...state, position, phase: 'idle', wakeAtMs: null };
  if (position >= state.count) return finish(moved, effects);
  return { state: moved, effects: [...effects, { type: 'load', position }] };
}

function finish(state: SessionState, effects: Effect[]): Step {
  return {
    state: { ...state, status: 'ended', phase: 'done', wakeAtMs: null, pendingDone: null },
    effects: [...effects, ...flushDone(state), { type: 'ended' }, publish(state, 'Session complete')],
  };
}

/** The rep ends the session: a call still up is hung up, and a call not yet dispositioned is reported as it is. */
function end(state: SessionState): Step {
  const { position, phase } = state;
  const effects: Effect[] = [];
  let pendingDone = state.pendingDone;
  if (CALL_UP.includes(phase))
    effects.push({ type: 'hangup', position }, { type: 'callEnded', position, hangupStatus: 'ended with the session' });
  if (HAS_CALL.includes(phase)) {
    effects.push(...flushDone(state), { type: 'dispositioned', position, disposition: null, auto: false });
    pendingDone = position;
  }
  return finish({ ...state, pendingDone }, effects);
}
