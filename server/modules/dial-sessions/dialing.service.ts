import { enqueueCallback } from '../../callbacks/outbox.repository.js';
import type { Context } from '../../context.js';
import type { DialSettings } from '../../contracts/dial-settings.js';
import type { Db } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import {
  type ContactFacts,
  type DispositionChoice,
  type Effect,
  type Input,
  type SessionState,
  type Settings,
  step,
} from '../../dialer/engine.js';
import { contactZones } from '../../dialer/skip-rules.js';
import { nowMs } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { addNoteFromDialer, recordCallResult } from '../contacts/contact-calls.service.js';
import { dispositionsOf } from '../dial-library/dial-library.repository.js';
import { settingsOf } from '../dial-settings/dial-settings.repository.js';
import { callBeginBody, callDoneBody, contactDisplayedBody } from './callback-bodies.js';
import { callAt, insertCall, updateCall } from './calls.repository.js';
import { insertEvent } from './dial-events.repository.js';
import * as repo from './dial-sessions.repository.js';
import { contactParties } from './session-contacts.js';

/*
 * Runs the dial-session engine (dialer/engine.ts): one input, in one transaction, with every effect applied in
 * order (calls, results, the contact's history, callbacks into the outbox, events for the screen), then the carrier
 * is told what to do once that is committed. A carrier command lost with its process is caught by the engine's
 * wake-up; one sent for a step that then failed to commit cannot happen, as commands wait for the commit.
 */

export type CarrierCommand =
  | { kind: 'place'; callId: number; to: string; ringSeconds: number }
  | { kind: 'hangup'; callId: number }
  | { kind: 'voicemail'; callId: number; durationSeconds: number };

type Run = {
  tx: Db;
  session: DialSession;
  settings: DialSettings;
  engine: Settings;
  at: string;
  nowMs: number;
  callbacks: { type: string; url: string }[];
  commands: CarrierCommand[];
  /** The number the rep chose to call (preview mode); otherwise the contact's primary number. */
  phone: string | undefined;
  changes: Partial<DialSession>;
};

export type DriveResult = { session: DialSession; rejected?: string };

export async function drive(ctx: Context, sessionId: number, input: Input, options: { phone?: string } = {}): Promise<DriveResult> {
  const outcome = await ctx.store.write(async (tx) => {
    const session = await repo.findSession(tx, sessionId);
    if (!session) return undefined;
    const run = await prepare(ctx, tx, session, options.phone);
    const first = step(stateOf(session), input, run.engine);
    if (first.rejected) return { session, rejected: first.rejected, commands: [] };
    const state = await applyAll(run, first.state, first.effects);
    const saved = await repo.updateSession(tx, session.id, { ...run.changes, ...rowOf(state, session, run.at) });
    return { session: saved, commands: run.commands };
  });
  if (!outcome) throw notFound(`There is no dial session ${sessionId}.`);
  for (const command of outcome.commands) sendToCarrier(ctx, command);
  ctx.dialer.events.poke();
  ctx.dialer.delivery?.nudge();
  return { session: outcome.session, ...(outcome.rejected ? { rejected: outcome.rejected } : {}) };
}

/** `drive` for a rep's action: an action the session cannot take now is a 409 that changes nothing. */
export async function act(ctx: Context, sessionId: number, input: Input, options: { phone?: string } = {}): Promise<DialSession> {
  const result = await drive(ctx, sessionId, input, options);
  if (result.rejected) throw conflict(result.rejected);
  return result.session;
}

function sendToCarrier(ctx: Context, command: CarrierCommand) {
  const { carrier } = ctx.dialer;
  if (command.kind === 'place') carrier.placeCall({ callId: command.callId, to: command.to, ringSeconds: command.ringSeconds });
  else if (command.kind === 'hangup') carrier.hangUp(command.callId);
  else carrier.playVoicemail(command.callId, { durationSeconds: command.durationSeconds });
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

async function prepare(ctx: Context, tx: Db, session: DialSession, phone: string | undefined): Promise<Run> {
  const [settings, callbacks, dialing] = await Promise.all([
    settingsOf(tx, session.member_id),
    repo.callbacksOf(tx, session.id),
    dispositionsOf(tx, session.dialing_set_id ? [session.dialing_set_id] : []),
  ]);
  const at = now();
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
  return { tx, session, settings, engine, at, nowMs: engine.nowMs, callbacks, commands: [], phone, changes: {} };
}

export const choice = (d: { id: number; label: string; status_key: string; connected: number }): DispositionChoice => ({
  id: d.id,
  label: d.label,
  key: d.status_key,
  connected: !!d.connected,
});

/** Applies effects in order; a 'load' brings the next contact up, whose own effects come next. */
async function applyAll(run: Run, start: SessionState, effects: Effect[]): Promise<SessionState> {
  let state = start;
  const pending = [...effects];
  while (pending.length) {
    const effect = pending.shift()!;
    if (effect.type !== 'load') {
      await apply(run, effect);
      continue;
    }
    const next = step(state, { type: 'arrive', position: effect.position, facts: await factsAt(run, effect.position) }, run.engine);
    state = next.state;
    pending.unshift(...next.effects);
  }
  return state;
}

/** What the skip rules need of the contact at a position, read when it comes up (not when the session was made). */
async function factsAt(run: Run, position: number): Promise<ContactFacts> {
  const entry = await repo.queueEntry(run.tx, run.session.id, position);
  const contact = await findContactRow(run.tx, entry.contact_id);
  if (!contact || contact.trashed) return { doNotCall: false, phone: '', zones: null, dialedBefore: false, missing: true };
  return {
    doNotCall: !!contact.do_not_call,
    phone: contact.phone,
    missing: false,
    zones: await contactZones({ phone: contact.phone, timeZone: contact.time_zone }),
    dialedBefore: await repo.dialedBefore(run.tx, run.session.id, contact.id, position),
  };
}

async function apply(run: Run, effect: Exclude<Effect, { type: 'load' }>): Promise<void> {
  const { tx, session, at } = run;
  switch (effect.type) {
    case 'display': {
      await repo.updateQueueEntry(tx, session.id, effect.position, { status: 'current' });
      const parties = await contactParties(tx, session, effect.position);
      if (parties) await enqueue(run, 'api_contact_displayed', contactDisplayedBody(parties.contact));
      return event(run, 'contact', { position: effect.position });
    }
    case 'skipped':
      return skipped(run, effect.position, effect.reason, effect.report);
    case 'dial':
      return dial(run, effect.position);
    case 'hangup':
    case 'playVoicemail':
    case 'answered':
    case 'callEnded':
      return callEffect(run, effect);
    case 'dispositioned':
      return dispositioned(run, effect.position, effect.disposition);
    case 'callDone': {
      const call = await callAt(tx, session.id, effect.position);
      if (!call) return;
      const parties = await contactParties(tx, session, effect.position);
      if (!parties) return;
      return enqueue(
        run,
        'api_calldone',
        callDoneBody(session, { kind: 'call', call, notes: JSON.parse(call.notes) as string[] }, parties),
      );
    }
    case 'ended':
      // A contact shown but never called goes back to waiting, so the queue does not show it as current.
      await repo.releaseCurrent(tx, session.id);
      return event(run, 'ended', { at });
    case 'publish':
      return event(run, 'state', { position: effect.position, call_state: effect.callState });
  }
}

async function skipped(run: Run, position: number, reason: string | null, report: boolean) {
  await repo.updateQueueEntry(run.tx, run.session.id, position, { status: 'skipped', skip_reason: reason ?? 'Already dialed or removed' });
  const parties = report && reason ? await contactParties(run.tx, run.session, position) : undefined;
  if (parties && reason) {
    await enqueue(run, 'api_calldone', callDoneBody(run.session, { kind: 'skip', reason, at: run.at }, parties));
  }
  await event(run, 'skipped', { position, reason });
}

async function dial(run: Run, position: number) {
  const { tx, session, at } = run;
  const entry = await repo.queueEntry(tx, session.id, position);
  const contact = await findContactRow(tx, entry.contact_id);
  const phone = run.phone ?? contact?.phone ?? '';
  const call = await insertCall(tx, {
    session_id: session.id,
    org_id: session.org_id,
    member_id: session.member_id,
    contact_id: entry.contact_id,
    position,
    phone,
    started_at: at,
  });
  await repo.updateQueueEntry(tx, session.id, position, { call_id: call.id });
  const parties = await contactParties(tx, session, position);
  if (parties) await enqueue(run, 'api_callbegin', callBeginBody(session, call, parties.contact));
  run.commands.push({ kind: 'place', callId: call.id, to: phone, ringSeconds: run.settings.dialsecs });
  await event(run, 'call', { position, call_id: String(call.id), phone, started_at: at });
}

async function callEffect(run: Run, effect: Extract<Effect, { type: 'hangup' | 'playVoicemail' | 'answered' | 'callEnded' }>) {
  const { tx, session, at } = run;
  const call = await callAt(tx, session.id, effect.position);
  if (!call) return;
  if (effect.type === 'hangup') {
    run.commands.push({ kind: 'hangup', callId: call.id });
  } else if (effect.type === 'playVoicemail') {
    await updateCall(tx, call.id, { voicemail_sent: effect.recording.name, voicemail: 1 });
    run.commands.push({ kind: 'voicemail', callId: call.id, durationSeconds: effect.recording.durationSeconds });
  } else if (effect.type === 'answered') {
    const person = effect.by === 'person';
    await updateCall(tx, call.id, { connected_at: at, connected: person ? 1 : 0, machine: person ? 0 : 1 });
    if (person) run.changes.connected_at ??= session.connected_at ?? at;
  } else {
    const seconds = (from: string | null) => (from ? Math.max(0, Math.round((Date.parse(`${at}Z`) - Date.parse(`${from}Z`)) / 1000)) : 0);
    await updateCall(tx, call.id, {
      ended_at: at,
      hangup_status: effect.hangupStatus,
      duration: seconds(call.started_at),
      talk_seconds: call.connected ? seconds(call.connected_at) : 0,
    });
    if (call.connected) run.changes.disconnected_at = at;
  }
}

async function dispositioned(run: Run, position: number, disposition: DispositionChoice | null) {
  const { tx, session, at } = run;
  const call = await callAt(tx, session.id, position);
  if (!call) return;
  const key = disposition?.key ?? null;
  const messageId = key ? run.settings.messages[key as keyof DialSettings['messages']] : undefined;
  await updateCall(tx, call.id, {
    disposition: disposition?.label ?? '',
    disposition_key: key,
    live: disposition?.connected ? 1 : 0,
    voicemail: call.voicemail || key === 'voicemail' ? 1 : 0,
    message_id: messageId === undefined ? null : String(messageId),
  });
  await repo.updateQueueEntry(tx, session.id, position, { status: 'done', result: disposition?.label ?? '' });
  await recordCallResult(tx, {
    memberId: session.member_id,
    contactId: call.contact_id,
    result: disposition?.label ?? '',
    phone: call.phone,
    startedAt: call.started_at,
    at,
    sessionId: session.id,
  });
  await event(run, 'result', { position, result: disposition?.label ?? '' });
}

/** A note the rep writes: on the contact's history, and on the call in progress (its api_calldone's call_notes). */
export async function addDialerNote(ctx: Context, session: DialSession, note: string): Promise<void> {
  await ctx.store.write(async (tx) => {
    const at = now();
    const entry =
      session.position >= 0 && session.position < session.contact_count
        ? await repo.queueEntry(tx, session.id, session.position)
        : undefined;
    if (!entry) throw conflict('There is no contact on screen to add a note to.');
    await addNoteFromDialer(tx, session.member_id, entry.contact_id, note, at);
    const call = await callAt(tx, session.id, session.position);
    if (call) await updateCall(tx, call.id, { notes: JSON.stringify([...(JSON.parse(call.notes) as string[]), note]) });
    await insertEvent(tx, session.id, 'note', { position: session.position }, at);
  });
  ctx.dialer.events.poke();
}

async function enqueue(run: Run, type: string, body: unknown) {
  const json = JSON.stringify(body);
  const rows = run.callbacks
    .filter((c) => c.type === type)
    .map((c) => ({ orgId: run.session.org_id, sessionId: run.session.id, type, url: c.url, body: json }));
  await enqueueCallback(run.tx, rows, run.nowMs);
}

async function event(run: Run, type: string, data: Record<string, unknown>) {
  await insertEvent(run.tx, run.session.id, type, data, run.at);
}
