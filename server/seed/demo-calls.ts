/*
 * Two weeks of the demo reps' past dial sessions, so the usage screen has figures on a first start. Each weekday
 * before today a rep runs one or two sessions through its own contacts in the US working day, with the mix of
 * outcomes a power dialer sees (no answer, busy, bad numbers, answering machines with a dropped voicemail, live
 * conversations of a few seconds to a quarter of an hour). Sessions, queues and calls are written through the
 * dialer's repositories, and each call's result through the contacts' own call-result path, so the contacts'
 * call_result, total_calls, last_call_time and activities agree with the calls. The same seed gives the same
 * history, counted back from the clock at seed time.
 */
import type { AuthContext } from '../auth/access.js';
import type { DialSettings } from '../contracts/dial-settings.js';
import type { Db, Store } from '../db/database.js';
import type { Disposition } from '../db/schema.js';
import { toTimestamp } from '../lib/time.js';
import { addNoteFromDialer, recordCallResult } from '../modules/contacts/contact-calls.service.js';
import { dispositionsOf, listVoicemails } from '../modules/dial-library/dial-library.repository.js';
import { settingsOf } from '../modules/dial-settings/dial-settings.repository.js';
import { insertCall } from '../modules/dial-sessions/calls.repository.js';
import { insertQueue, insertSession, updateSession } from '../modules/dial-sessions/dial-sessions.repository.js';
import { chosenSets } from '../modules/dial-sessions/session-library.js';
import { random, type Random } from './random.js';

export const HISTORY_DAYS = 14;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/* Sessions start from 16:00 UTC: 8 a.m. on the Pacific coast, inside every mainland contact's calling hours. */
const FIRST_SESSION_MINUTE = 16 * 60;
/* Alaska and Hawaii are outside calling hours for much of that day: their contacts are left out. */
const FAR_AREA_CODES = ['907', '808'];
const NOTES = [
  'Wants pricing for a team of 20.',
  'Call back after the board meeting.',
  'Using a competitor until March.',
  'Asked for a demo next week.',
  'Send the case study.',
  'Gatekeeper: ask for the office manager.',
];

export type HistoryContact = { id: number; phone: string };
export type RepHistory = { auth: AuthContext; contacts: HistoryContact[] };

type Library = { dispositions: Disposition[]; sets: { dialing: number; answer: number }; recordings: { name: string; seconds: number }[] };
type Rep = RepHistory & { settings: DialSettings; callable: HistoryContact[] };
type Outcome = {
  key: string;
  hangup: string;
  endS: number;
  answerS: number | null;
  person: boolean;
  dropped: string | null;
  wrapS: number;
  note: string | null;
};
type PlannedCall = { contact: HistoryContact; startMs: number; outcome: Outcome };
type PlannedSession = { rep: Rep; createdMs: number; startMs: number; endMs: number; preview: boolean; calls: PlannedCall[] };

/** Plans every rep's history, then writes it in the order it happened, so session and call ids follow the clock. */
export async function seedCallHistory(ctx: { store: Store }, reps: RepHistory[], nowMs: number): Promise<void> {
  const first = reps[0];
  if (!first) return;
  const { db } = ctx.store;
  const sets = await chosenSets(db, first.auth.scope.orgId, {});
  const library: Library = {
    sets,
    dispositions: await dispositionsOf(db, [sets.dialing, sets.answer]),
    recordings: (await listVoicemails(db, first.auth.scope.orgId)).map((v) => ({ name: v.name, seconds: Math.ceil(v.duration_ms / 1000) })),
  };
  const rnd = random(20261109);
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const plans: PlannedSession[] = [];
  for (const history of reps) {
    const rep: Rep = {
      ...history,
      settings: await settingsOf(db, history.auth.member.id),
      callable: history.contacts.filter((c) => !FAR_AREA_CODES.includes(c.phone.slice(0, 3))),
    };
    plans.push(...planRep(rnd, rep, library, today));
  }
  plans.sort((a, b) => a.createdMs - b.createdMs);
  await ctx.store.write(async (tx) => {
    for (const plan of plans) await writeSession(tx, plan, library);
  });
}

/** Each weekday before today (a few days off), one or two sessions from mid-morning on the East Coast. */
function planRep(rnd: Random, rep: Rep, library: Library, today: number): PlannedSession[] {
  const sessions: PlannedSession[] = [];
  for (let day = today - HISTORY_DAYS * DAY_MS; day < today; day += DAY_MS) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6 || rnd.chance(0.08)) continue;
    let startMs = day + (FIRST_SESSION_MINUTE + rnd.int(0, 75)) * MINUTE_MS;
    for (let n = rnd.chance(0.4) ? 2 : 1; n > 0; n--) {
      const session = planSession(rnd, rep, library, startMs);
      sessions.push(session);
      startMs = session.endMs + rnd.int(45, 120) * MINUTE_MS;
    }
  }
  return sessions;
}

/** 10 to 22 contacts called one after the other, each as soon as the one before was dispositioned. */
function planSession(rnd: Random, rep: Rep, library: Library, startMs: number): PlannedSession {
  const createdMs = startMs - rnd.int(1, 4) * MINUTE_MS;
  const preview = rnd.chance(0.25);
  const calls: PlannedCall[] = [];
  let atMs = startMs;
  for (const contact of rnd.sample(rep.callable, rnd.int(10, 22))) {
    const outcome = outcomeOf(rnd, rep.settings.dialsecs, library.recordings);
    calls.push({ contact, startMs: atMs, outcome });
    atMs += (outcome.endS + outcome.wrapS + rnd.int(1, 4)) * 1000;
  }
  return { rep, createdMs, startMs, endMs: atMs, preview, calls };
}

/** An ended session, its calls and its queue, each contact called once. */
async function writeSession(tx: Db, plan: PlannedSession, library: Library): Promise<void> {
  const { member, scope } = plan.rep.auth;
  const session = await insertSession(tx, {
    org_id: scope.orgId,
    member_id: member.id,
    status: 'ended',
    phase: 'done',
    position: plan.calls.length,
    contact_count: plan.calls.length,
    preview_mode: plan.preview ? 1 : 0,
    send_skips: 0,
    dialing_set_id: library.sets.dialing,
    answer_set_id: library.sets.answer,
    preset_id: null,
    custom_data: null,
    idempotency_key: null,
    creation_errors: null,
    request_hash: `demo-history:${member.id}:${plan.startMs}`,
    created_at: stamp(plan.createdMs),
    started_at: stamp(plan.startMs),
  });
  let connectedAt: string | null = null;
  let disconnectedAt: string | null = null;
  const queue = [];
  for (const [position, planned] of plan.calls.entries()) {
    const call = await writeCall(tx, plan.rep, library, { sessionId: session.id, position, ...planned });
    if (call.live) {
      connectedAt ??= call.connected_at;
      disconnectedAt = call.ended_at;
    }
    queue.push({
      session_id: session.id,
      position,
      contact_id: planned.contact.id,
      status: 'done' as const,
      call_id: call.id,
      result: call.disposition,
    });
  }
  await insertQueue(tx, queue);
  await updateSession(tx, session.id, { ended_at: stamp(plan.endMs), connected_at: connectedAt, disconnected_at: disconnectedAt });
}

const stamp = (ms: number) => toTimestamp(new Date(ms));

/** One call, its disposition and its contact's result, as the dialer writes them when the call is dispositioned. */
async function writeCall(tx: Db, rep: Rep, library: Library, planned: PlannedCall & { sessionId: number; position: number }) {
  const { contact, startMs, outcome } = planned;
  const disposition = library.dispositions.find((d) => d.status_key === outcome.key)!;
  const at = (seconds: number) => stamp(startMs + seconds * 1000);
  const messageId = rep.settings.messages[outcome.key as keyof DialSettings['messages']];
  const call = await insertCall(tx, {
    session_id: planned.sessionId,
    org_id: rep.auth.scope.orgId,
    member_id: rep.auth.member.id,
    contact_id: contact.id,
    position: planned.position,
    phone: contact.phone,
    started_at: at(0),
    connected_at: outcome.answerS === null ? null : at(outcome.answerS),
    ended_at: at(outcome.endS),
    connected: outcome.person ? 1 : 0,
    live: disposition.connected ? 1 : 0,
    machine: outcome.answerS !== null && !outcome.person ? 1 : 0,
    voicemail: outcome.key === 'voicemail' ? 1 : 0,
    voicemail_sent: outcome.dropped,
    hangup_status: outcome.hangup,
    message_id: messageId === undefined ? null : String(messageId),
    notes: JSON.stringify(outcome.note ? [outcome.note] : []),
    disposition: disposition.label,
    disposition_key: disposition.status_key,
    duration: outcome.endS,
    talk_seconds: outcome.person && outcome.answerS !== null ? outcome.endS - outcome.answerS : 0,
  });
  if (outcome.note) await addNoteFromDialer(tx, rep.auth.scope, rep.auth.member.id, contact.id, outcome.note, at(outcome.endS));
  await recordCallResult(tx, rep.auth.scope, {
    memberId: rep.auth.member.id,
    contactId: contact.id,
    result: disposition.label,
    phone: contact.phone,
    startedAt: call.started_at,
    at: at(outcome.endS + outcome.wrapS),
    sessionId: planned.sessionId,
  });
  return { ...call, live: !!disposition.connected };
}

/** What happens on the line: about a third of calls reach a person, a fifth a machine, the rest nobody or a bad line. */
function outcomeOf(rnd: Random, ringSeconds: number, recordings: Library['recordings']): Outcome {
  const none = { answerS: null, person: false, dropped: null, wrapS: 0, note: null };
  const kind = rnd.weighted([
    ['noanswer', 30],
    ['busy', 6],
    ['badphone', 4],
    ['voicemail', 22],
    ['live', 38],
  ] as const);
  if (kind === 'noanswer') return { ...none, key: 'noanswer', hangup: 'no answer', endS: ringSeconds + rnd.int(0, 1) };
  if (kind === 'busy') return { ...none, key: 'busy', hangup: 'busy', endS: rnd.int(1, 3) };
  if (kind === 'badphone') return { ...none, key: 'badphone', hangup: 'not in service', endS: rnd.int(1, 3) };
  const answerS = rnd.int(3, 9);
  if (kind === 'voicemail') {
    const recording = rnd.pick(recordings);
    return {
      ...none,
      key: 'voicemail',
      hangup: 'voicemail left',
      answerS,
      dropped: recording.name,
      endS: answerS + rnd.int(2, 5) + recording.seconds,
    };
  }
  const key = rnd.weighted([
    ['interested', 28],
    ['notinterested', 37],
    ['callback', 25],
    ['wrongperson', 10],
  ] as const);
  const [shortest, longest] =
    key === 'wrongperson'
      ? [8, 40]
      : rnd.weighted([
          [[15, 60], 2],
          [[60, 300], 5],
          [[300, 900], 3],
        ] as const);
  const talkS = rnd.int(shortest, longest);
  const note = (key === 'interested' || key === 'callback') && rnd.chance(0.4) ? rnd.pick(NOTES) : null;
  return {
    key,
    hangup: rnd.chance(0.7) ? 'completed' : 'hung up',
    endS: answerS + talkS,
    answerS,
    person: true,
    dropped: null,
    wrapS: rnd.int(5, 40),
    note,
  };
}
