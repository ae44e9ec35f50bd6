import type { AuthContext } from '../../auth/access.js';
import type { Context } from '../../context.js';
import { phoneDigits } from '../../contracts/contacts.js';
import type { DialAction } from '../../contracts/dial-sessions.js';
import type { DialSession } from '../../db/schema.js';
import type { CallState, Input, Phase } from '../../dialer/engine.js';
import { now } from '../../lib/time.js';
import { badRequest, Codes, forbidden } from '../../lib/errors.js';
import { listVoicemails } from '../dial-library/dial-library.repository.js';
import { contactRecord } from '../contacts/contacts.service.js';
import { callAt } from './calls.repository.js';
import { lastEventId } from './dial-events.repository.js';
import { progressOf, queueEntry, queueWindow } from './dial-sessions.repository.js';
import { toCallRecord, toSessionRecord } from './dial-sessions.serializer.js';
import { act, addDialerNote, choice } from './dialing.service.js';
import { visibleSession } from './dial-reads.service.js';
import { sessionDisposition, sessionDispositions, sessionRecording } from './session-library.js';

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
export async function snapshot(ctx: Context, auth: AuthContext, session: DialSession) {
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
    call: call ? { ...toCallRecord(call, false), connected_when: call.connected_at } : null,
    progress: { ...progress, total: session.contact_count },
    queue: queue.map((q) => ({
      position: q.position,
      contact_user_id: String(q.contact_id),
      name: `${q.first_name ?? ''} ${q.last_name ?? ''}`.trim() || `Contact ${q.contact_id}`,
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

/** Only the rep running a session acts in it; its manager and the vendor may watch. */
export async function ownSession(ctx: Context, auth: AuthContext, id: number) {
  const session = await visibleSession(ctx, auth, id);
  if (session.member_id !== auth.member.id) throw forbidden('Only the member running this dial session can act in it.');
  return session;
}

export type ActionBody = { phone?: string; disposition_id?: number; recording_id?: number; note?: string };

export async function perform(ctx: Context, auth: AuthContext, id: number, action: DialAction, body: ActionBody): Promise<DialSession> {
  const session = await ownSession(ctx, auth, id);
  if (action === 'note') {
    await addDialerNote(ctx, session, body.note!);
    return session;
  }
  // The number is one of the contact on screen; with none (not started, or ended) the engine refuses the call itself.
  const onScreen = session.position >= 0 && session.position < session.contact_count;
  const options = action === 'call' && body.phone && onScreen ? { phone: await chosenPhone(ctx, auth, session, body.phone) } : {};
  return act(ctx, session.id, await inputFor(ctx, session, action, body), options);
}

async function inputFor(ctx: Context, session: DialSession, action: Exclude<DialAction, 'note'>, body: ActionBody): Promise<Input> {
  switch (action) {
    case 'disposition':
      return { type: 'disposition', disposition: choice(await sessionDisposition(ctx.store.db, session, body.disposition_id!)) };
    case 'voicemail':
      return { type: 'voicemail', recording: await sessionRecording(ctx.store.db, session, body.recording_id!) };
    default:
      return { type: action };
  }
}

/** The rep may call any of the current contact's numbers. */
async function chosenPhone(ctx: Context, auth: AuthContext, session: DialSession, phone: string): Promise<string> {
  const entry = await queueEntry(ctx.store.db, session.id, session.position);
  const record = JSON.parse(await contactRecord(ctx, auth, entry.contact_id)) as { phones: { phone_number: string }[] | null };
  const digits = phoneDigits(phone);
  if (!(record.phones ?? []).some((p) => p.phone_number === digits)) {
    throw badRequest([{ code: Codes.invalidField, field: 'phone', reason: "phone must be one of the contact's numbers." }]);
  }
  return digits;
}
