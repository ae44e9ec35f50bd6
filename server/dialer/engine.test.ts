import { describe, expect, it } from 'vitest';
import type { CarrierEvent } from './carrier.js';
import { type ContactFacts, type DispositionChoice, type Effect, type Input, type SessionState, type Settings, step } from './engine.js';

/* The engine alone: no store, no clock, no carrier. A contact "comes up" when the test answers a 'load' with facts. */
const NOON_NEW_YORK = Date.parse('2026-11-23T17:00:00Z');
const auto = (key: string): DispositionChoice => ({ id: key.length, label: key.toUpperCase(), key, connected: false });
const settings = (overrides: Partial<Settings> = {}): Settings => ({
  nowMs: NOON_NEW_YORK,
  ringSeconds: 30,
  window: { min: '0800', max: '2100' },
  sendSkips: true,
  timeScale: 1,
  auto,
  ...overrides,
});
const reachable: ContactFacts = {
  doNotCall: false,
  phone: '2125550100',
  zones: ['America/New_York'],
  dialedBefore: false,
  missing: false,
  moved: false,
};
const interested: DispositionChoice = { id: 6, label: 'Interested', key: 'interested', connected: true };
const fresh = (mode: 'power' | 'preview', count = 3): SessionState => ({
  status: 'ready',
  mode,
  position: -1,
  count,
  phase: 'idle',
  wakeAtMs: null,
  pendingDone: null,
});

/** Runs inputs, answering every 'load' with the facts for that position; answers the last state and every effect. */
function run(state: SessionState, inputs: Input[], facts: (position: number) => ContactFacts = () => reachable, s = settings()) {
  const effects: Effect[] = [];
  let current = state;
  const feed = (input: Input) => {
    const next = step(current, input, s);
    current = next.state;
    for (const effect of next.effects) {
      effects.push(effect);
      if (effect.type === 'load') feed({ type: 'arrive', position: effect.position, facts: facts(effect.position) });
    }
    return next;
  };
  const last = inputs.map(feed).at(-1);
  return { state: current, effects, rejected: last?.rejected };
}
const kinds = (effects: Effect[]) =>
  effects.filter((e) => e.type !== 'publish' && e.type !== 'load').map((e) => `${e.type}${'position' in e ? `@${e.position}` : ''}`);
const carrier = (position: number, event: CarrierEvent): Input => ({ type: 'carrier', position, event });

describe('power mode', () => {
  it('shows and dials the first contact at start, waking up if the carrier goes quiet', () => {
    const { state, effects } = run(fresh('power'), [{ type: 'start' }]);
    expect(kinds(effects)).toEqual(['display@0', 'dial@0']);
    expect(state).toMatchObject({ status: 'active', phase: 'ringing', position: 0, wakeAtMs: NOON_NEW_YORK + 45_000 });
  });

  it("sends the next contact's display before the previous contact's call-done, then dials it", () => {
    const { effects } = run(fresh('power'), [
      { type: 'start' },
      carrier(0, { kind: 'answered', by: 'person' }),
      { type: 'disposition', disposition: interested },
    ]);
    expect(kinds(effects)).toEqual([
      'display@0',
      'dial@0',
      'answered@0',
      'hangup@0',
      'callEnded@0',
      'dispositioned@0',
      'display@1',
      'callDone@0',
      'dial@1',
    ]);
  });

  it.each([
    [{ kind: 'busy' } as CarrierEvent, 'busy', 'Busy'],
    [{ kind: 'no_answer' } as CarrierEvent, 'noanswer', 'No answer'],
    [{ kind: 'failed', reason: 'not in service' } as CarrierEvent, 'badphone', 'Not in service'],
  ])('dispositions %j automatically from the Dialing set and moves on', (event, key, callState) => {
    const { effects, state } = run(fresh('power'), [{ type: 'start' }, carrier(0, event)]);
    expect(effects).toContainEqual({ type: 'dispositioned', position: 0, disposition: auto(key), auto: true });
    expect(effects).toContainEqual({ type: 'publish', position: 0, callState });
    expect(state).toMatchObject({ position: 1, phase: 'ringing' });
  });

  it('plays a voicemail into an answering machine, then dispositions it as Voicemail when it ends', () => {
    const recording = { id: 1, name: 'Intro', durationSeconds: 8 };
    const { effects, state } = run(fresh('power'), [
      { type: 'start' },
      carrier(0, { kind: 'answered', by: 'machine' }),
      { type: 'voicemail', recording },
      carrier(0, { kind: 'ended' }),
    ]);
    expect(kinds(effects).slice(2, 6)).toEqual(['answered@0', 'playVoicemail@0', 'callEnded@0', 'dispositioned@0']);
    expect(effects).toContainEqual({ type: 'dispositioned', position: 0, disposition: auto('voicemail'), auto: true });
    expect(state.position).toBe(1);
  });

  it('ignores events of another position or a stale phase, and wakes only when due', () => {
    const started = run(fresh('power'), [{ type: 'start' }]).state;
    expect(step(started, carrier(1, { kind: 'busy' }), settings()).effects).toEqual([]);
    expect(step(started, { type: 'wake' }, settings()).effects).toEqual([]);
    const woken = step(started, { type: 'wake' }, settings({ nowMs: started.wakeAtMs! }));
    expect(kinds(woken.effects)).toEqual(['hangup@0', 'callEnded@0', 'dispositioned@0']);
  });
});

describe('skip rules when a contact comes up', () => {
  it.each([
    ['DNC', { ...reachable, doNotCall: true }],
    ['Invalid Number', { ...reachable, phone: '123' }],
    ['Calling Hours', { ...reachable, zones: ['Pacific/Guam'] }],
  ])('skips with %s, reported when sending skips', (reason, facts) => {
    const { effects } = run(fresh('power', 2), [{ type: 'start' }], (p) => (p === 0 ? facts : reachable));
    expect(effects).toContainEqual({ type: 'skipped', position: 0, reason, report: true });
    expect(kinds(effects)).toEqual(['skipped@0', 'display@1', 'dial@1']);
  });

  it('passes over a contact dialed earlier in the session, or removed, without a result', () => {
    const { effects } = run(fresh('power', 3), [{ type: 'start' }], (p) => ({ ...reachable, dialedBefore: p === 0, missing: p === 1 }));
    expect(effects.filter((e) => e.type === 'skipped')).toEqual([
      { type: 'skipped', position: 0, reason: null, report: false },
      { type: 'skipped', position: 1, reason: null, report: false },
    ]);
  });

  it('checks calling hours at the time the contact comes up', () => {
    const late = settings({ nowMs: Date.parse('2026-11-24T03:30:00Z') });
    const { effects } = run(fresh('power', 1), [{ type: 'start' }], () => reachable, late);
    expect(effects).toContainEqual({ type: 'skipped', position: 0, reason: 'Calling Hours', report: true });
  });
});

describe('preview mode', () => {
  it('waits for Call, lets the rep skip a contact not yet called, and not one already called', () => {
    const shown = run(fresh('preview'), [{ type: 'start' }]);
    expect(shown.state.phase).toBe('waiting');
    expect(kinds(shown.effects)).toEqual(['display@0']);
    const skipped = run(shown.state, [{ type: 'skip' }]);
    expect(skipped.effects).toContainEqual({ type: 'skipped', position: 0, reason: 'Manual', report: true });
    const called = run(skipped.state, [{ type: 'call' }]);
    expect(kinds(called.effects)).toEqual(['dial@1']);
    expect(run(called.state, [{ type: 'skip' }]).rejected).toMatch(/not been called/);
  });
});

describe('ending', () => {
  it('completes after the last contact, sending the pending call-done', () => {
    const { effects, state } = run(fresh('power', 1), [{ type: 'start' }, carrier(0, { kind: 'busy' })]);
    expect(kinds(effects).slice(-3)).toEqual(['dispositioned@0', 'callDone@0', 'ended']);
    expect(state).toMatchObject({ status: 'ended', phase: 'done' });
    expect(step(state, { type: 'call' }, settings()).rejected).toMatch(/ended/);
  });

  it('hangs up a call still up when the rep ends the session and reports it without a disposition', () => {
    const { effects } = run(fresh('power'), [{ type: 'start' }, carrier(0, { kind: 'answered', by: 'person' }), { type: 'end' }]);
    expect(kinds(effects).slice(3)).toEqual(['hangup@0', 'callEnded@0', 'dispositioned@0', 'callDone@0', 'ended']);
    expect(effects).toContainEqual({ type: 'dispositioned', position: 0, disposition: null, auto: false });
  });

  it.each<[string, Input]>([
    ['a hang-up with no call', { type: 'hangup' }],
    ['a voicemail with no machine', { type: 'voicemail', recording: { id: 1, name: 'x', durationSeconds: 1 } }],
    ['a disposition before a call', { type: 'disposition', disposition: interested }],
  ])('rejects %s without changing anything', (_label, input) => {
    const waiting = run(fresh('preview'), [{ type: 'start' }]).state;
    const next = step(waiting, input, settings());
    expect(next.rejected).toBeTruthy();
    expect(next.state).toBe(waiting);
    expect(next.effects).toEqual([]);
  });
});
