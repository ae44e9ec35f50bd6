import { reaches, type Scope } from '../../auth/access.js';
import { enqueueCallback } from '../../callbacks/outbox.repository.js';
import type { DialSettings } from '../../contracts/dial-settings.js';
import type { Db } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import type { ContactFacts, DispositionChoice, Effect, SessionState, Settings } from '../../dialer/engine.js';
import { step } from '../../dialer/engine.js';
import { contactZones } from '../../dialer/skip-rules.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { recordCallResult } from '../contacts/contact-calls.service.js';
import { queueDispositionEmail } from '../emails/disposition-email.js';
import { callBeginBody, callDoneBody, contactDisplayedBody } from './callback-bodies.js';
import type { CarrierCommand } from './carrier-commands.js';
import { callAt, insertCall, updateCall } from './calls.repository.js';
import { recordingUrl } from './dial-sessions.serializer.js';
import { expectRecording } from '../recordings/recordings.repository.js';
import { insertEvent } from './dial-events.repository.js';
import * as repo from './dial-sessions.repository.js';
import { contactParties } from './session-contacts.js';

/*
 * The effects of one engine step, applied in order inside its transaction: the queue, the calls, the contact's
 * history, callbacks into the outbox, events for the screen, and the carrier commands that wait for the commit.
 */

export type Run = {
  tx: Db;
  session: DialSession;
  /** Whose contacts the session's member may reach now: a contact moved out of it is neither dialed, changed nor told of. */
  scope: Scope;
  settings: DialSettings;
  engine: Settings;
  /** When the step happened: now, or the time a carrier event says. */
  at: string;
  nowMs: number;
  callbacks: { type: string; url: string }[];
  commands: CarrierCommand[];
  /** The number the rep chose to call (preview mode); otherwise the contact's primary number. */
  phone: string | undefined;
  changes: Partial<DialSession>;
  /** Whether the organisation records its calls. */
  record: boolean;
  publicUrl: string;
  /** Whether this deployment sends disposition e-mails (SMTP_URL). */
  sendsEmail: boolean;
};

/** Applies effects in order; a 'load' brings the next contact up, whose own effects come next. */
export async function applyAll(run: Run, start: SessionState, effects: Effect[]): Promise<SessionState> {
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
  if (!contact || contact.trashed) return { doNotCall: false, phone: '', zones: null, dialedBefore: false, missing: true, moved: false };
  if (!reaches(run.scope, contact)) return { doNotCall: false, phone: '', zones: null, dialedBefore: false, missing: false, moved: true };
  return {
    doNotCall: !!contact.do_not_call,
    phone: contact.phone,
    missing: false,
    moved: false,
    zones: await contactZones({ phone: contact.phone, timeZone: contact.time_zone }),
    dialedBefore: await repo.dialedBefore(run.tx, run.session.id, contact.id, position),
  };
}

async function apply(run: Run, effect: Exclude<Effect, { type: 'load' }>): Promise<void> {
  const { tx, session, at } = run;
  switch (effect.type) {
    case 'display': {
      await repo.updateQueueEntry(tx, session.id, effect.position, { status: 'current' });
      const parties = await contactParties(tx, session, effect.position, run.scope);
      if (parties && !('withheld' in parties.contact)) await enqueue(run, 'api_contact_displayed', contactDisplayedBody(parties.contact));
      return event(run, 'contact', { position: effect.position });
    }
    case 'skipped':
      return skipped(run, effect.position, effect.reason, effect.report, effect.note);
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
      const parties = await contactParties(tx, session, effect.position, run.scope);
      if (!parties) return;
      const recorded = run.record && (call.connected || call.machine);
      const outcome = {
        kind: 'call' as const,
        call,
        notes: JSON.parse(call.notes) as string[],
        recordingUrl: recorded ? recordingUrl(run.publicUrl, call.id) : null,
      };
      return enqueue(run, 'api_calldone', callDoneBody(session, outcome, parties));
    }
    case 'ended':
      // A contact shown but never called goes back to waiting, so the queue does not show it as current.
      await repo.releaseCurrent(tx, session.id);
      return event(run, 'ended', { at });
    case 'publish':
      return event(run, 'state', { position: effect.position, call_state: effect.callState });
  }
}

async function skipped(run: Run, position: number, reason: string | null, report: boolean, note?: string) {
  await repo.updateQueueEntry(run.tx, run.session.id, position, {
    status: 'skipped',
    skip_reason: reason ?? note ?? 'Already dialed or removed',
  });
  const parties = report && reason ? await contactParties(run.tx, run.session, position, run.scope) : undefined;
  if (parties && reason) {
    await enqueue(run, 'api_calldone', callDoneBody(run.session, { kind: 'skip', reason, at: run.at }, parties));
  }
  await event(run, 'skipped', { position, reason: reason ?? note ?? null });
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
  const parties = await contactParties(tx, session, position, run.scope);
  if (parties && !('withheld' in parties.contact)) await enqueue(run, 'api_callbegin', callBeginBody(session, call, parties.contact));
  run.commands.push({ kind: 'place', callId: call.id, to: phone, ringSeconds: run.settings.dialsecs, record: run.record });
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
    run.commands.push({
      kind: 'voicemail',
      callId: call.id,
      recordingId: effect.recording.id,
      durationSeconds: effect.recording.durationSeconds,
    });
  } else if (effect.type === 'answered') {
    const person = effect.by === 'person';
    await updateCall(tx, call.id, { connected_at: at, connected: person ? 1 : 0, machine: person ? 0 : 1 });
    if (person) run.changes.connected_at ??= session.connected_at ?? at;
    // The carrier records what the call was placed with: the organisation's setting, read again by every step (a
    // setting changed in the seconds between placing and answering is the one case where the two can differ).
    if (run.record) await expectRecording(tx, { callId: call.id, orgId: session.org_id, at, nowMs: run.nowMs });
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
  const emailed = await queueDispositionEmail(tx, {
    callId: call.id,
    orgId: session.org_id,
    memberId: session.member_id,
    contactId: call.contact_id,
    scope: run.scope,
    enabled: run.sendsEmail && run.settings.emails,
    messageId,
    nowMs: run.nowMs,
  });
  await updateCall(tx, call.id, {
    disposition: disposition?.label ?? '',
    disposition_key: key,
    live: disposition?.connected ? 1 : 0,
    voicemail: call.voicemail || key === 'voicemail' ? 1 : 0,
    message_id: messageId === undefined ? null : String(messageId),
    // Once queued (docs/api.md): whether it went out is email_ok, set by the delivery.
    email_sent: emailed ? 1 : call.email_sent,
  });
  await repo.updateQueueEntry(tx, session.id, position, { status: 'done', result: disposition?.label ?? '' });
  await recordCallResult(tx, run.scope, {
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
