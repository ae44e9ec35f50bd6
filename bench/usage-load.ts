/*
 * What bench/usage.ts loads: a vendor's organisation with a history of dial sessions (calls over many days, written
 * through the calls repository, so whatever a call's write keeps in step is kept), and about a million dial events
 * spread over those sessions, as a busy week leaves them.
 */
import type { Store } from '../server/db/database.js';
import type { Team } from './load.js';
import { toTimestamp } from '../server/lib/time.js';
import { insertCall } from '../server/modules/dial-sessions/calls.repository.js';
import { insertSession } from '../server/modules/dial-sessions/dial-sessions.repository.js';
import { random, type Random } from '../server/seed/random.js';

export type History = { firstDay: string; lastDay: string; sessionIds: number[]; calls: number };

const DAY_MS = 86_400_000;
const CALLS_PER_SESSION = 20;
const SESSIONS_PER_TRANSACTION = 100;
const EVENTS_PER_STATEMENT = 500;
const EVENTS_PER_TRANSACTION = 20_000;

const dayOf = (ms: number) => toTimestamp(new Date(ms)).slice(0, 10);

/** The default sets' labels a call of each kind ends with, so a member's day holds as many labels as a real one. */
const LABELS = {
  live: ['Interested', 'Not Interested', 'Wrong Person', 'Call Back'],
  voicemail: ['Voicemail'],
  none: ['No Answer', 'Busy', 'Bad Phone', ''],
} as const;

/** What happens on a call: about a third live conversations, a fifth machines with a voicemail left, the rest nobody. */
function outcome(rnd: Random) {
  const kind = rnd.weighted([
    ['live', 35],
    ['voicemail', 20],
    ['none', 45],
  ] as const);
  const talk = kind === 'live' ? rnd.int(15, 900) : 0;
  const labels = LABELS[kind];
  return {
    connected: kind === 'live' ? 1 : 0,
    live: kind === 'live' ? 1 : 0,
    machine: kind === 'voicemail' ? 1 : 0,
    voicemail: kind === 'voicemail' ? 1 : 0,
    talk_seconds: talk,
    duration: talk + rnd.int(5, 40),
    disposition: rnd.pick(labels),
  };
}

/**
 * `calls` calls over `days` days ending yesterday, spread evenly over the team's members, in sessions of 20 calls,
 * each session's calls a minute apart from 15:00 UTC. Written day by day, so ids follow the clock.
 */
export async function loadCallHistory(
  store: Store,
  team: Team,
  calls: number,
  days: number,
  log: (line: string) => void,
): Promise<History> {
  const rnd = random(90_288);
  const first = Math.floor(Date.now() / DAY_MS) * DAY_MS - days * DAY_MS;
  const perMemberDay = Math.max(1, Math.round(calls / (team.members.length * days)));
  const sessionIds: number[] = [];
  const plans: { member: Team['members'][number]; startMs: number; count: number }[] = [];
  for (let d = 0; d < days; d++) {
    for (const member of team.members) {
      for (let done = 0, s = 0; done < perMemberDay; done += CALLS_PER_SESSION, s++) {
        plans.push({
          member,
          startMs: first + d * DAY_MS + (15 * 60 + s * 40) * 60_000,
          count: Math.min(CALLS_PER_SESSION, perMemberDay - done),
        });
      }
    }
  }
  const started = performance.now();
  let written = 0;
  for (let i = 0; i < plans.length; i += SESSIONS_PER_TRANSACTION) {
    await store.write(async (tx) => {
      for (const plan of plans.slice(i, i + SESSIONS_PER_TRANSACTION)) {
        const at = (ms: number) => toTimestamp(new Date(ms));
        const session = await insertSession(tx, {
          org_id: team.vendor.org_id,
          member_id: plan.member.id,
          status: 'ended',
          phase: 'done',
          position: plan.count,
          contact_count: plan.count,
          preview_mode: 0,
          send_skips: 0,
          request_hash: `usage-bench:${plan.member.id}:${plan.startMs}`,
          created_at: at(plan.startMs),
          started_at: at(plan.startMs),
        });
        sessionIds.push(session.id);
        for (let position = 0; position < plan.count; position++) {
          const startMs = plan.startMs + position * 60_000;
          await insertCall(tx, {
            session_id: session.id,
            org_id: team.vendor.org_id,
            member_id: plan.member.id,
            contact_id: 1 + position,
            position,
            phone: `212555${String(position).padStart(4, '0')}`,
            started_at: at(startMs),
            ended_at: at(startMs + 50_000),
            ...outcome(rnd),
          });
          written++;
        }
      }
    });
    if (i % (SESSIONS_PER_TRANSACTION * 20) === 0)
      log(`  loaded ${written.toLocaleString('en-US')} calls (${Math.round(written / ((performance.now() - started) / 1000))}/s)`);
  }
  return { firstDay: dayOf(first), lastDay: dayOf(first + (days - 1) * DAY_MS), sessionIds, calls: written };
}

/** `count` events spread evenly over the sessions, in id order session after session; answers each session's last event id. */
export async function loadEvents(store: Store, sessionIds: number[], count: number): Promise<Map<number, number>> {
  const per = Math.max(1, Math.round(count / sessionIds.length));
  const at = toTimestamp(new Date());
  const rows = function* () {
    for (const sessionId of sessionIds) {
      for (let position = 0; position < per; position++) {
        yield {
          session_id: sessionId,
          type: 'state',
          data: JSON.stringify({ position: position >> 2, call_state: 'Ringing' }),
          created_at: at,
        };
      }
    }
  };
  let batch: { session_id: number; type: string; data: string; created_at: string }[] = [];
  const flush = async () => {
    const rowsNow = batch;
    batch = [];
    await store.write(async (tx) => {
      for (let i = 0; i < rowsNow.length; i += EVENTS_PER_STATEMENT)
        await tx
          .insertInto('dial_events')
          .values(rowsNow.slice(i, i + EVENTS_PER_STATEMENT))
          .execute();
    });
  };
  for (const row of rows()) {
    batch.push(row);
    if (batch.length >= EVENTS_PER_TRANSACTION) await flush();
  }
  await flush();
  const last = await store.db
    .selectFrom('dial_events')
    .select((eb) => ['session_id', eb.fn.max('id').as('id')])
    .groupBy('session_id')
    .execute();
  return new Map(last.map((r) => [r.session_id, Number(r.id)]));
}
