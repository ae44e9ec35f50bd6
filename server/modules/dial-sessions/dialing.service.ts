import { reaches, type Scope, scopeFor } from '../../auth/access.js';
import { findMemberOfRecord } from '../../auth/auth.repository.js';
import type { Config } from '../../config.js';
import type { Db, Store } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import { type DispositionChoice, type Input, type SessionState, type Settings, step } from '../../dialer/engine.js';
import { nowMs } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { addNoteFromDialer } from '../contacts/contact-calls.service.js';
import { dispositionsOf } from '../dial-library/dial-library.repository.js';
import { recordingSettingsOf, settingsOf } from '../dial-settings/dial-settings.repository.js';
import { type CarrierCommand, type CarrierCommandsDeps, sendCommands } from './carrier-commands.js';
import { callAt, updateCall } from './calls.repository.js';
import { applyAll, type Run } from './dial-effects.js';
import type { DialEventHub } from './dial-events.js';
import { insertEvent } from './dial-events.repository.js';
import { writingTo } from '../../db/locks.js';
import * as repo from './dial-sessions.repository.js';

/*
 * Runs the dial-session engine (dialer/engine.ts): one input, in one transaction, with every effect applied in
 * order (dial-effects.ts: calls, results, the contact's history, callbacks into the outbox, events for the screen),
 * then the carrier is told what to do once that is committed (carrier-commands.ts). A carrier command lost with its
 * process is caught by the engine's wake-up; one sent for a step that then failed to commit cannot happen.
 */

export type { CarrierCommand };

/**
 * What driving a session needs: the store, the dialer's settings, and this process's dialer parts: the carrier
 * (carrier-commands.ts), the event hub whose open streams look again, the callback delivery that looks again.
 */
export type DialingDeps = CarrierCommandsDeps & {
  store: Store;
  config: Pick<Config, 'publicUrl' | 'carrier'>;
  /** `emails` absent: this deployment sends no e-mail (no SMTP_URL), so dispositions queue none. */
  dialer: { events: Pick<DialEventHub, 'poke'>; delivery: { nudge(): void }; emails?: { nudge(): void } };
};

export type DriveResult = { session: DialSession; rejected?: string };
/** What one input did, inside the caller's transaction: the carrier commands wait for its commit (`afterCommit`). */
export type Driven = DriveResult & { commands: CarrierCommand[] };

export async function drive(ctx: DialingDeps, sessionId: number, input: Input, options: { phone?: string } = {}): Promise<DriveResult> {
  const outcome = await ctx.store.write((tx) => driveIn(ctx, tx, sessionId, input, options));
  if (!outcome) throw notFound(`There is no dial session ${sessionId}.`);
  await afterCommit(ctx, outcome.commands);
  return { session: outcome.session, ...(outcome.rejected ? { rejected: outcome.rejected } : {}) };
}

/** Applies one input to a session in the caller's write transaction; undefined when there is no such session. */
export async function driveIn(
  ctx: DialingDeps,
  tx: Db,
  sessionId: number,
  input: Input,
  options: { phone?: string } = {},
): Promise<Driven | undefined> {
  // It writes events: the event writers' lock comes before any other (db/locks.ts). Then the session's row (PostgreSQL:
  // `for update`): inputs to one session are applied one after another, each reading what the one before committed,
  // and its events and callbacks take ids in that order.
  await writingTo(tx, 'dial_events');
  const session = await repo.lockSession(tx, sessionId);
  if (!session) return undefined;
  return driveLocked(ctx, tx, session, input, options);
}

/**
 * Wakes a session whose wake-up time has come, if no other driver holds it: a claim (docs/store.md). On PostgreSQL the
 * row is read `for update skip locked`, so of the servers that found it due one wakes it and the others pass on (a
 * session held by a carrier event is woken at the next tick if still due). Nothing happens when it was passed over
 * or is no longer due.
 */
export async function wake(ctx: DialingDeps, sessionId: number): Promise<void> {
  const outcome = await ctx.store.write(async (tx) => {
    await writingTo(tx, 'dial_events'); // before any other lock (db/locks.ts): it writes events
    const session = await repo.claimDueSession(tx, sessionId, nowMs());
    return session ? driveLocked(ctx, tx, session, { type: 'wake' }) : undefined;
  });
  if (outcome) await afterCommit(ctx, outcome.commands);
}

/** Applies one input to a session whose row the caller's transaction holds. */
async function driveLocked(
  ctx: DialingDeps,
  tx: Db,
  session: DialSession,
  input: Input,
  options: { phone?: string } = {},
): Promise<Driven> {
  const run = await prepare(ctx, tx, session, input, options.phone);
  const first = step(stateOf(session), await checkedInput(run, input), run.engine);
  if (first.rejected) return { session, rejected: first.rejected, commands: [] };
  const state = await applyAll(run, first.state, first.effects);
  const saved = await repo.updateSession(tx, session.id, { ...run.changes, ...rowOf(state, session, run.at) });
  return { session: saved, commands: run.commands };
}

/** Once the steps' transaction has committed: the carrier is told, open streams and the callback worker look now. */
export async function afterCommit(ctx: DialingDeps, commands: CarrierCommand[]): Promise<void> {
  ctx.dialer.events.poke();
  ctx.dialer.delivery?.nudge();
  ctx.dialer.emails?.nudge();
  await sendCommands(ctx, commands);
}

/** `drive` for a rep's action: an action the session cannot take now is a 409 that changes nothing. */
export async function act(ctx: DialingDeps, sessionId: number, input: Input, options: { phone?: string } = {}): Promise<DialSession> {
  const result = await drive(ctx, sessionId, input, options);
  if (result.rejected) throw conflict(result.rejected);
  return result.session;
}

const stateOf = (s: DialSession): SessionState => ({
  status: s.status,
  mode: s.preview_mode ? 'preview' : 'power',
  position: s.position,
  count: s.contact_count,
  phase: s.phase as SessionState['phase'],
  wakeAtMs: s.wake_at_ms,
  pendingDone: s.pending_done,
});

/** The session member's reach as it is now (its team may have changed since the session was made). */
async function memberScope(tx: Db, session: DialSession): Promise<Scope> {
  const member = await findMemberOfRecord(tx, session.member_id);
  return member ? scopeFor(tx, member) : { kind: 'team', orgId: session.org_id, memberIds: [] };
}

/** A call asked for in preview is placed only if the contact on screen is still the member's; otherwise it is passed over. */
async function checkedInput(run: Run, input: Input): Promise<Input> {
  if (input.type !== 'call' || run.session.position < 0 || run.session.position >= run.session.contact_count) return input;
  const entry = await repo.queueEntry(run.tx, run.session.id, run.session.position);
  const contact = await findContactRow(run.tx, entry.contact_id);
  return !contact || contact.trashed || !reaches(run.scope, contact) ? { type: 'withdraw' } : input;
}

function rowOf(state: SessionState, before: DialSession, at: string): Partial<DialSession> {
  return {
    status: state.status,
    phase: state.phase,
    position: state.position,
    wake_at_ms: state.wakeAtMs,
    pending_done: state.pendingDone,
    started_at: before.started_at ?? (state.status !== 'ready' ? at : null),
    ended_at: before.ended_at ?? (state.status === 'ended' ? at : null),
  };
}

async function prepare(ctx: DialingDeps, tx: Db, session: DialSession, input: Input, phone: string | undefined): Promise<Run> {
  const [settings, callbacks, dialing, scope, recording] = await Promise.all([
    settingsOf(tx, session.member_id),
    repo.callbacksOf(tx, session.id),
    dispositionsOf(tx, session.dialing_set_id ? [session.dialing_set_id] : []),
    memberScope(tx, session),
    recordingSettingsOf(tx, session.org_id),
  ]);
  // A carrier event is applied at the time it happened (the recorded times and durations are the real ones).
  const at = input.type === 'carrier' && input.at ? input.at : now();
  const engine: Settings = {
    nowMs: nowMs(),
    ringSeconds: settings.dialsecs,
    window: { min: settings.calltime_min, max: settings.calltime_max },
    sendSkips: !!session.send_skips,
    timeScale: ctx.config.carrier.timeScale,
    auto: (key) => {
      const d = dialing.find((x) => x.status_key === key);
      return d ? choice(d) : null;
    },
  };
  return {
    tx,
    session,
    scope,
    settings,
    engine,
    at,
    nowMs: engine.nowMs,
    callbacks,
    commands: [],
    phone,
    changes: {},
    record: recording.recordCalls,
    publicUrl: ctx.config.publicUrl,
    sendsEmail: ctx.dialer.emails !== undefined,
  };
}

export const choice = (d: { id: number; label: string; status_key: string; connected: number }): DispositionChoice => ({
  id: d.id,
  label: d.label,
  key: d.status_key,
  connected: !!d.connected,
});

/** A note the rep writes: on the contact's history, and on the call in progress (its api_calldone's call_notes). */
export async function addDialerNote(ctx: Pick<DialingDeps, 'store' | 'dialer'>, session: DialSession, note: string): Promise<void> {
  await ctx.store.write(async (tx) => {
    await writingTo(tx, 'dial_events'); // before any other lock (db/locks.ts): it writes an event
    const at = now();
    const entry =
      session.position >= 0 && session.position < session.contact_count
        ? await repo.queueEntry(tx, session.id, session.position)
        : undefined;
    if (!entry) throw conflict('There is no contact on screen to add a note to.');
    if (!(await addNoteFromDialer(tx, await memberScope(tx, session), session.member_id, entry.contact_id, note, at))) {
      throw conflict('This contact is no longer yours (it was moved or deleted): the note was not added.');
    }
    const call = await callAt(tx, session.id, session.position);
    if (call) await updateCall(tx, call.id, { notes: JSON.stringify([...(JSON.parse(call.notes) as string[]), note]) });
    await insertEvent(tx, session.id, 'note', { position: session.position }, at);
  });
  ctx.dialer.events.poke();
}
