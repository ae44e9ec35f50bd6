import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { demoRecording } from '../../dialer/demo-audio.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { openStream, type SseEvent, type SseStream } from '../../test/sse.js';
import { insertVoicemail } from '../dial-library/dial-library.repository.js';

/*
 * Usage is read from figures kept per member and day (usage_days, usage_day_sessions, usage_dispositions) by every
 * write of a call. After each kind of change a call goes through, driven for real (the simulated carrier: a number's
 * last digit picks who answers, 0-4 a person, 5 a machine, 8 busy), the kept rows must equal what the calls give, read
 * in one snapshot, and the usage answers (per member, per day, per disposition) must equal what the calls give.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
let recordingId: string;
const DAY = '2026-11-23';

beforeAll(async () => {
  setClock(new Date(`${DAY}T18:00:00Z`));
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
  rep = api(team.rep);
  recordingId = String(
    (
      await server.ctx.store.write((tx) =>
        insertVoicemail(tx, {
          org_id: team.rep.org_id,
          member_id: null,
          name: 'Intro',
          content_type: 'audio/wav',
          audio: demoRecording(0, 2),
          duration_ms: 2000,
          created_at: now(),
        }),
      )
    ).id,
  );
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

type DayFigures = {
  member_id: number;
  day: string;
  calls: number;
  connected: number;
  voicemail: number;
  emails: number;
  talk_seconds: number;
};
type Outcome = { member_id: number; day: string; disposition: string; calls: number };
const numbers = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])));

/** The kept rows and the same figures computed from the calls, in one snapshot (a write transaction that writes nothing). */
async function keptAndTruth() {
  return server.ctx.store.write(async (trx) => {
    const day = sql<string>`substr(started_at, 1, 10)`;
    const keptDays = await trx
      .selectFrom('usage_days')
      .select(['member_id', 'day', 'calls', 'connected', 'voicemail', 'emails', 'talk_seconds'])
      .orderBy('member_id')
      .orderBy('day')
      .execute();
    const days = await trx
      .selectFrom('calls')
      .select((eb) => [
        'member_id',
        day.as('day'),
        eb.fn.countAll().as('calls'),
        eb.fn.sum('live').as('connected'),
        eb.fn.sum('voicemail').as('voicemail'),
        eb.fn.sum('email_ok').as('emails'),
        eb.fn.sum(eb.case().when('live', '=', 1).then(eb.ref('talk_seconds')).else(0).end()).as('talk_seconds'),
      ])
      .groupBy(['member_id', day])
      .orderBy('member_id')
      .orderBy(day)
      .execute();
    const keptSessions = await trx
      .selectFrom('usage_day_sessions')
      .select(['member_id', 'day', 'session_id'])
      .orderBy('session_id')
      .orderBy('day')
      .execute();
    const sessions = await trx
      .selectFrom('calls')
      .select(['member_id', day.as('day'), 'session_id'])
      .distinct()
      .orderBy('session_id')
      .orderBy(day)
      .execute();
    // A label a call left keeps its row at 0: the answers leave such labels out, and so does this comparison.
    const keptOutcomes = await trx
      .selectFrom('usage_dispositions')
      .select(['member_id', 'day', 'disposition', 'calls'])
      .where('calls', '!=', 0)
      .orderBy('member_id')
      .orderBy('day')
      .orderBy('disposition')
      .execute();
    const outcomes = await trx
      .selectFrom('calls')
      .select((eb) => ['member_id', day.as('day'), 'disposition', eb.fn.countAll().as('calls')])
      .groupBy(['member_id', day, 'disposition'])
      .orderBy('member_id')
      .orderBy(day)
      .orderBy('disposition')
      .execute();
    return {
      kept: { days: numbers(keptDays), sessions: numbers(keptSessions), outcomes: numbers(keptOutcomes) },
      truth: { days: numbers(days) as DayFigures[], sessions: numbers(sessions), outcomes: numbers(outcomes) as Outcome[] },
    };
  });
}

async function expectKeptToMatchCalls(after: string) {
  const { kept, truth } = await keptAndTruth();
  expect(kept, after).toEqual(truth);
  return truth;
}

/** The usage answer for `who` over the day, against the seven figures computed from the calls. */
async function expectUsageToMatchCalls(who: Member, memberIds: number[]) {
  const { truth } = await keptAndTruth();
  const reply = await api(who).get(`/rest/1/dialsession/usage?date_start=${DAY}&date_end=${DAY}`);
  expect(reply.status, reply.text).toBe(200);
  for (const id of memberIds) {
    const f = truth.days.find((d) => d.member_id === id);
    const talk = f?.talk_seconds ?? 0;
    expect(reply.body.usage[id], `member ${id}`).toEqual({
      sessions: new Set(truth.sessions.filter((s) => s.member_id === id).map((s) => s.session_id)).size,
      calls: f?.calls ?? 0,
      connected: f?.connected ?? 0,
      voicemail: f?.voicemail ?? 0,
      emails: f?.emails ?? 0,
      talktime: Math.round(talk / 60),
      avg_talktime: f?.connected ? Math.round(talk / 60 / f.connected) : 0,
    });
  }
}

/** The per-day and per-disposition answers for `who` over the day (and for one member of its team), against the calls. */
async function expectBreakdownsToMatchCalls(who: Member, memberIds: number[]) {
  const { truth } = await keptAndTruth();
  for (const ids of [memberIds, [memberIds[0]!]]) {
    const only = ids.length === 1 ? `&member_id=${ids[0]}` : '';
    const days = truth.days.filter((d) => ids.includes(d.member_id));
    const sum = (key: 'calls' | 'connected' | 'voicemail' | 'talk_seconds') => days.reduce((n, d) => n + d[key], 0);
    const perDay = await api(who).get(`/rest/1/dialsession/usage/days?date_start=${DAY}&date_end=${DAY}${only}`);
    expect(perDay.status, perDay.text).toBe(200);
    expect(perDay.body.usage_days.days).toEqual([
      {
        date: DAY,
        calls: sum('calls'),
        connected: sum('connected'),
        voicemail: sum('voicemail'),
        talktime_minutes: Math.round(sum('talk_seconds') / 60),
      },
    ]);
    const labels = new Map<string, number>();
    for (const o of truth.outcomes.filter((x) => ids.includes(x.member_id)))
      labels.set(o.disposition, (labels.get(o.disposition) ?? 0) + o.calls);
    const expected = [...labels]
      .map(([disposition, calls]) => ({ disposition, calls }))
      .sort((a, b) => b.calls - a.calls || (a.disposition < b.disposition ? -1 : 1));
    const perLabel = await api(who).get(`/rest/1/dialsession/usage/dispositions?date_start=${DAY}&date_end=${DAY}${only}`);
    expect(perLabel.status, perLabel.text).toBe(200);
    expect(perLabel.body.usage_dispositions.dispositions, `members ${ids.join(', ')}`).toEqual(expected);
  }
}

async function launch(
  caller: Caller,
  token: string,
  phones: string[],
): Promise<{ id: string; stream: SseStream; dispositions: Record<string, string> }> {
  const created = await caller.post('/rest/1/dialsession', {
    contacts: phones.map((phone, i) => ({ first_name: `Usage${i}`, last_name: phone, phone, allow_duplicates: 1 })),
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, { authorization: `Bearer ${token}` });
  const live = (await caller.get(`/rest/1/dialsession/${id}/live`)).body.live;
  const dispositions = Object.fromEntries(
    live.dispositions.map((d: { label: string; disposition_id: string }) => [d.label, d.disposition_id]),
  );
  return { id, stream, dispositions };
}

const stateIs = (position: number, callState: string) => (e: SseEvent) =>
  e.event === 'state' && e.data.position === position && e.data.call_state === callState;
const talkFor = (minutes: number) => setClock(new Date(nowMs() + minutes * 60_000));
const act = async (id: string, action: string, body: object = {}) =>
  expect((await rep.post(`/rest/1/dialsession/${id}/${action}`, body)).status).toBe(200);

it('keeps usage per member and day equal to what the calls give, through every kind of change a call goes through', async () => {
  const { id, stream, dispositions } = await launch(rep, server.tokenOf(team.rep), [
    '3125550100',
    '3125550105',
    '3125550101',
    '3125550102',
  ]);
  await act(id, 'start');
  await stream.waitFor((e) => e.event === 'call' && e.data.position === 0);
  await expectKeptToMatchCalls('dialed');
  await stream.waitFor(stateIs(0, 'Connected'));
  await expectKeptToMatchCalls('answered by a person');
  talkFor(3);
  await act(id, 'disposition', { disposition_id: dispositions.Interested });
  await stream.waitFor(stateIs(1, 'Answering machine'));
  await expectKeptToMatchCalls('dispositioned live while up (which ends it), the next answered by a machine');
  await act(id, 'voicemail', { recording_id: recordingId });
  await stream.waitFor(stateIs(1, 'Voicemail left'));
  await expectKeptToMatchCalls('voicemail dropped');
  await stream.waitFor(stateIs(2, 'Connected'));
  talkFor(2);
  await act(id, 'hangup');
  await stream.waitFor(stateIs(2, 'Call ended'));
  await expectKeptToMatchCalls('hung up before a disposition');
  await act(id, 'disposition', { disposition_id: dispositions['Not Interested'] });
  await stream.waitFor(stateIs(3, 'Connected'));
  await expectKeptToMatchCalls('dispositioned live after it ended');
  talkFor(1);
  await act(id, 'disposition', { disposition_id: dispositions['No Answer'] });
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  await expectKeptToMatchCalls('a person dispositioned not live');
  stream.close();

  const second = await launch(rep, server.tokenOf(team.rep), ['3125550103', '3125550108']);
  await act(second.id, 'start');
  await second.stream.waitFor(stateIs(0, 'Connected'));
  talkFor(4);
  await act(second.id, 'end');
  await second.stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  await expectKeptToMatchCalls('ended with the session while a person was on the line');
  second.stream.close();

  const other = await launch(api(team.teammate), server.tokenOf(team.teammate), ['3125550208']);
  expect((await api(team.teammate).post(`/rest/1/dialsession/${other.id}/start`)).status).toBe(200);
  await other.stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  other.stream.close();
  const truth = await expectKeptToMatchCalls("a teammate's busy call");
  const repDay = truth.days.find((d) => d.member_id === team.rep.id)!;
  expect(repDay).toMatchObject({ calls: 5, connected: 2, voicemail: 1 });
  // Three and two minutes in live calls; the minute of the one dispositioned No Answer and the four of the one ended are not counted.
  expect(repDay.talk_seconds).toBeGreaterThanOrEqual(300);
  expect(repDay.talk_seconds).toBeLessThan(360);
  await expectUsageToMatchCalls(team.vendor, [team.vendor.id, team.manager.id, team.rep.id, team.teammate.id, team.outsider.id]);
  await expectUsageToMatchCalls(team.manager, [team.rep.id, team.teammate.id]);
  await expectBreakdownsToMatchCalls(team.vendor, [team.rep.id, team.vendor.id, team.manager.id, team.teammate.id, team.outsider.id]);
  await expectBreakdownsToMatchCalls(team.manager, [team.rep.id, team.manager.id, team.teammate.id]);
  const outcomes = (await keptAndTruth()).truth.outcomes.filter((o) => o.member_id === team.rep.id);
  // The call ended with the session has no disposition and counts under ''.
  expect(Object.fromEntries(outcomes.map((o) => [o.disposition, o.calls]))).toEqual({
    '': 1,
    Interested: 1,
    'Not Interested': 1,
    'No Answer': 1,
    Voicemail: 1,
  });
});
