import { type AuthContext, reaches } from '../../auth/access.js';
import { phoneDigits } from '../../contracts/contacts.js';
import type { DialAction } from '../../contracts/dial-sessions.js';
import type { DialSession } from '../../db/schema.js';
import { type CallState, type Input, MOVED_NOTE, type Phase } from '../../dialer/engine.js';
import { now } from '../../lib/time.js';
import { conflict, forbidden, invalidField, notFound } from '../../lib/errors.js';
import { listVoicemails } from '../dial-library/dial-library.repository.js';
import { contactRecord, type ContactsDeps } from '../contacts/contacts.service.js';
import { callAt } from './calls.repository.js';
import { lastEventId } from './dial-events.repository.js';
import { findRunningSession, isSecondRunningSession, progressOf, queueEntry, queueWindow } from './dial-sessions.repository.js';
import { toCallRecord, toSessionRecord } from './dial-sessions.serializer.js';
import { act, addDialerNote, afterCommit, choice, driveIn, type DialingDeps } from './dialing.service.js';
import { visibleSession, type DialReadsDeps } from './dial-reads.service.js';
import { sessionDisposition, sessionDispositions, sessionRecording } from './session-library.js';

/** Driving the session (dialing.service.ts), and reading it and its contacts' records for the screen. */
export type DialLiveDeps = DialingDeps & DialReadsDeps & ContactsDeps;

/* What the dialer screen shows and does (extensions of /rest/1/dialsession/{id}, documented in docs/api.md). */

const CALL_STATES: Record<Phase, CallState | 'Ready to start'> = {
  idle: 'Ready to start',
  waiting: 'Ready to call',
  ringing: 'Ringing',
  connected: 'Connected',
  machine: 'Answering machine',
  playing: 'Leaving voicemail',
  wrapup: 'Call ended',
  done: 'Session complete',
};

const QUEUE_BEHIND = 10;
const QUEUE_AHEAD = 25;

/** Everything the screen needs to (re)draw: the current contact and call, progress, the queue around it, the choices. */
export async function snapshot(ctx: DialLiveDeps, auth: AuthContext, session: DialSession) {
  const { db } = ctx.store;
  const current = session.position >= 0 && session.position < session.contact_count ? session.position : null;
  const entry = current === null ? undefined : await queueEntry(db, session.id, current);
  const [contact, call, progress, queue, dispositions, voicemails, lastEvent] = await Promise.all([
    entry ? contactRecord(ctx, auth, entry.contact_id).catch(() => null) : null,
    current === null ? undefined : callAt(db, session.id, current),
    progressOf(db, session.id),
    queueWindow(db, session.id, Math.max(0, (current ?? session.contact_count) - QUEUE_BEHIND), (current ?? -1) + QUEUE_AHEAD),
    sessionDispositions(db, session),
    listVoicemails(db, session.org_id),
    lastEventId(db, session.id),
  ]);
  return {
    session: toSessionRecord(session, 0),
    phase: session.phase,
    call_state: CALL_STATES[session.phase as Phase] ?? 'Ready to start',
    position: current,
    contact: contact ? JSON.parse(contact) : null,
    call: call
      ? {
          ...toCallRecord(call, { includeRecording: false, includeTranscript: false, publicUrl: ctx.config.publicUrl }),
          connected_when: call.connected_at,
        }
      : null,
    progress: { ...progress, total: session.contact_count },
    queue: queue.map((q) => ({
      position: q.position,
      contact_user_id: String(q.contact_id),
      name: queueName(auth, session, q),
      status: q.status,
      result: q.result ?? (q.skip_reason ? `Skipped - ${q.skip_reason}` : null),
    })),
    dispositions: dispositions.map((d) => ({
      disposition_id: String(d.id),
      label: d.label,
      status: d.status_key,
      set: d.set_id === session.dialing_set_id ? 'dialing' : 'live_answer',
      connected: d.connected ? '1' : '0',
      shortcut: d.shortcut,
    })),
    voicemails: voicemails.map((v) => ({ recording_id: String(v.id), name: v.name, seconds: Math.round(v.duration_ms / 1000) })),
    last_event_id: lastEvent,
    /* The server's clock (it may run from CLOCK_START), so the screen's timers measure from the call's own times. */
    now: now(),
  };
}

/** A queued contact's name as the watcher may see it: not the name a contact moved out of its reach has now. */
function queueName(
  auth: AuthContext,
  session: DialSession,
  q: { contact_id: number; first_name: string | null; last_name: string | null; owner_id: number | null },
) {
  if (q.owner_id !== null && !reaches(auth.scope, { org_id: session.org_id, owner_id: q.owner_id })) return MOVED_NOTE;
  return `${q.first_name ?? ''} ${q.last_name ?? ''}`.trim() || `Contact ${q.contact_id}`;
}

/** Only the rep running a session acts in it; its manager and the vendor may watch. */
export async function ownSession(ctx: DialLiveDeps, auth: AuthContext, id: number) {
  const session = await visibleSession(ctx, auth, id);
  if (session.member_id !== auth.member.id) throw forbidden('Only the member running this dial session can act in it.');
  return session;
}

export type ActionBody = { phone?: string; disposition_id?: number; recording_id?: number; note?: string };

export async function perform(
  ctx: DialLiveDeps,
  auth: AuthContext,
  id: number,
  action: DialAction,
  body: ActionBody,
): Promise<DialSession> {
  const session = await ownSession(ctx, auth, id);
  if (action === 'start') return startSession(ctx, session);
  if (action === 'note') {
    await addDialerNote(ctx, session, body.note!);
    return session;
  }
  // The number is one of the contact on screen; with none (not started, or ended) the engine refuses the call itself.
  const onScreen = session.position >= 0 && session.position < session.contact_count;
  const phone = action === 'call' && body.phone && onScreen ? await chosenPhone(ctx, auth, session, body.phone) : undefined;
  const options = phone ? { phone } : {};
  return act(ctx, session.id, await inputFor(ctx, session, action, body), options);
}

async function inputFor(ctx: DialLiveDeps, session: DialSession, action: Exclude<DialAction, 'note'>, body: ActionBody): Promise<Input> {
  switch (action) {
    case 'disposition':
      return { type: 'disposition', disposition: choice(await sessionDisposition(ctx.store.db, session, body.disposition_id!)) };
    case 'voicemail':
      return { type: 'voicemail', recording: await sessionRecording(ctx.store.db, session, body.recording_id!) };
    default:
      return { type: action };
  }
}

/** The rep may call any of the current contact's numbers; none when it is no longer the rep's (the call then passes it over). */
async function chosenPhone(ctx: DialLiveDeps, auth: AuthContext, session: DialSession, phone: string): Promise<string | undefined> {
  const entry = await queueEntry(ctx.store.db, session.id, session.position);
  const json = await contactRecord(ctx, auth, entry.contact_id).catch(() => undefined);
  if (json === undefined) return undefined;
  const record = JSON.parse(json) as { phones: { phone_number: string }[] | null };
  const digits = phoneDigits(phone);
  if (!(record.phones ?? []).some((p) => p.phone_number === digits)) {
    throw invalidField('phone', "phone must be one of the contact's numbers.");
  }
  return digits;
}

const runningReason = (id: number) => `You are already running dial session ${id}: resume it or end it first.`;

/**
 * A member runs one session at a time: the check and the start are one write transaction, so two starts at once
 * cannot both pass it (SQLite serialises writes). On PostgreSQL two transactions could, so migration 0015's partial
 * unique index on (member_id) where status = 'active' refuses the second, and that refusal is the same 409.
 */
async function startSession(ctx: DialLiveDeps, session: DialSession): Promise<DialSession> {
  const outcome = await ctx.store
    .write(async (tx) => {
      const running = await findRunningSession(tx, session.member_id, session.id);
      if (running) throw conflict(runningReason(running.id));
      return driveIn(ctx, tx, session.id, { type: 'start' });
    })
    .catch(async (error: unknown) => {
      if (!isSecondRunningSession(error)) throw error;
      const running = await findRunningSession(ctx.store.db, session.member_id, session.id);
      throw conflict(running ? runningReason(running.id) : 'You are already running another dial session: resume it or end it first.');
    });
  if (!outcome) throw notFound(`There is no dial session ${session.id}.`);
  await afterCommit(ctx, outcome.commands);
  if (outcome.rejected) throw conflict(outcome.rejected);
  return outcome.session;
}
