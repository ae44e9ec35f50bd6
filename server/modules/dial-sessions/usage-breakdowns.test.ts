import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { insertCall, updateCall } from './calls.repository.js';
import { insertSession } from './dial-sessions.repository.js';

/*
 * GET /rest/1/dialsession/usage/days and /usage/dispositions (extensions): who sees whose figures, one member of the
 * team with member_id, the days of the range. Calls are written through the calls repository (the one write path, so
 * whatever it keeps is kept) on chosen days; usage-days.test.ts drives calls through the dialer for real.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let unsetCall: number;

type Outcome = { disposition?: string; live?: number; voicemail?: number; talk_seconds?: number };

async function callsOf(member: Member, day: string, outcomes: Outcome[]): Promise<number[]> {
  return server.ctx.store.write(async (tx) => {
    const session = await insertSession(tx, {
      org_id: member.org_id,
      member_id: member.id,
      status: 'ended',
      phase: 'done',
      position: 0,
      contact_count: outcomes.length,
      preview_mode: 0,
      send_skips: 0,
      request_hash: `breakdowns:${member.id}:${day}`,
      created_at: `${day} 15:00:00`,
      started_at: `${day} 15:00:00`,
    });
    const ids: number[] = [];
    for (const [position, o] of outcomes.entries()) {
      const started = `${day} 15:${String(position).padStart(2, '0')}:00`;
      const call = await insertCall(tx, {
        session_id: session.id,
        org_id: member.org_id,
        member_id: member.id,
        contact_id: 1,
        position,
        phone: '2125550100',
        started_at: started,
        ...o,
      });
      ids.push(call.id);
    }
    return ids;
  });
}

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam());
  const [, , , blank] = await callsOf(team.rep, '2026-11-20', [
    { disposition: 'Interested', live: 1, talk_seconds: 150 },
    { disposition: 'Voicemail', voicemail: 1 },
    { disposition: 'Voicemail', voicemail: 1 },
    {},
  ]);
  unsetCall = blank!;
  await callsOf(team.rep, '2026-11-22', [{ disposition: 'No Answer' }]);
  await callsOf(team.rep, '2026-08-24', [{ disposition: 'No Answer' }]);
  await callsOf(team.teammate, '2026-11-22', [
    { disposition: 'Interested', live: 1, talk_seconds: 60 },
    { disposition: 'Interested', live: 1, talk_seconds: 60 },
  ]);
  await callsOf(team.outsider, '2026-11-22', [{ disposition: 'Busy' }]);
  await callsOf(team.otherVendor, '2026-11-22', [{ disposition: 'Interested', live: 1, talk_seconds: 600 }]);
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

const perDay = (who: Member, query: string) => as(who).get(`/rest/1/dialsession/usage/days?${query}`);
const perLabel = (who: Member, query: string) => as(who).get(`/rest/1/dialsession/usage/dispositions?${query}`);
const WEEK = 'date_start=2026-11-19&date_end=2026-11-23';
const day = (date: string, over: Partial<Record<'calls' | 'connected' | 'voicemail' | 'talktime_minutes', number>> = {}) => ({
  date,
  calls: 0,
  connected: 0,
  voicemail: 0,
  talktime_minutes: 0,
  ...over,
});

describe('GET /rest/1/dialsession/usage/days', () => {
  it('answers every day of the range for a rep, its own calls only, zeros included, talk time in minutes', async () => {
    const reply = await perDay(team.rep, WEEK);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.usage_days).toEqual({
      days: [
        day('2026-11-19'),
        day('2026-11-20', { calls: 4, connected: 1, voicemail: 2, talktime_minutes: 3 }),
        day('2026-11-21'),
        day('2026-11-22', { calls: 1 }),
        day('2026-11-23'),
      ],
      page: 1,
      page_size: 5,
      total_results: 5,
      total_pages: 1,
    });
  });

  it.each([
    ['a manager: its team', () => team.manager, null, { calls: 3, connected: 2, talktime_minutes: 2 }],
    ['a manager: one member of its team', () => team.manager, () => team.teammate, { calls: 2, connected: 2, talktime_minutes: 2 }],
    ['the vendor: everyone of its organisation', () => team.vendor, null, { calls: 4, connected: 2, talktime_minutes: 2 }],
    ["the vendor: a member outside the manager's team", () => team.vendor, () => team.outsider, { calls: 1 }],
    ['a rep naming itself', () => team.rep, () => team.rep, { calls: 1 }],
  ])('adds up %s', async (_who, who, only, figures) => {
    const reply = await perDay(who(), `date_start=2026-11-22&date_end=2026-11-22${only ? `&member_id=${only().id}` : ''}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.usage_days.days).toEqual([day('2026-11-22', figures)]);
  });

  it('answers 90 days (91 of them, both ends counted) and counts the first one', async () => {
    const reply = await perDay(team.rep, 'date_start=2026-08-24&date_end=2026-11-22');
    expect(reply.status, reply.text).toBe(200);
    const { days, total_results } = reply.body.usage_days;
    expect([days.length, total_results, days[0], days.at(-1)]).toEqual([
      91,
      91,
      day('2026-08-24', { calls: 1 }),
      day('2026-11-22', { calls: 1 }),
    ]);
  });
});

describe('GET /rest/1/dialsession/usage/dispositions', () => {
  it.each([
    [
      'a rep: its own',
      () => team.rep,
      null,
      [
        ['Voicemail', 2],
        ['', 1],
        ['Interested', 1],
        ['No Answer', 1],
      ],
    ],
    [
      'a manager: its team',
      () => team.manager,
      null,
      [
        ['Interested', 3],
        ['Voicemail', 2],
        ['', 1],
        ['No Answer', 1],
      ],
    ],
    ['a manager: one member', () => team.manager, () => team.teammate, [['Interested', 2]]],
    [
      'the vendor: everyone',
      () => team.vendor,
      null,
      [
        ['Interested', 3],
        ['Voicemail', 2],
        ['', 1],
        ['Busy', 1],
        ['No Answer', 1],
      ],
    ],
    ['another organisation: none of these', () => team.otherVendor, null, [['Interested', 1]]],
  ] as const)('counts calls per label, most first, for %s', async (_who, who, only, expected) => {
    const reply = await perLabel(who(), `${WEEK}${only ? `&member_id=${only().id}` : ''}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.usage_dispositions).toEqual({
      dispositions: expected.map(([disposition, calls]) => ({ disposition, calls })),
      page: 1,
      page_size: expected.length,
      total_results: expected.length,
      total_pages: 1,
    });
  });

  it('answers an empty list for days without calls', async () => {
    const reply = await perLabel(team.vendor, 'date_start=2026-01-01&date_end=2026-01-31');
    expect(reply.body.usage_dispositions).toEqual({ dispositions: [], page: 1, page_size: 1, total_results: 0, total_pages: 0 });
  });

  it('moves a call to its label when it is dispositioned, and leaves out a label no call holds any more', async () => {
    await server.ctx.store.write((tx) => updateCall(tx, unsetCall, { disposition: 'Busy' }));
    try {
      const reply = await perLabel(team.rep, WEEK);
      expect(reply.body.usage_dispositions.dispositions).toEqual([
        { disposition: 'Voicemail', calls: 2 },
        { disposition: 'Busy', calls: 1 },
        { disposition: 'Interested', calls: 1 },
        { disposition: 'No Answer', calls: 1 },
      ]);
    } finally {
      await server.ctx.store.write((tx) => updateCall(tx, unsetCall, { disposition: '' }));
    }
  });
});

it("keeps a removed member's history its own: its manager and the vendor still read it by member_id", async () => {
  const created = await as(team.vendor).post('/rest/1/members', {
    username: `gone${process.pid}`,
    password: 'correct horse battery',
    first_name: 'Gone',
    email: 'gone@example.com',
    billing_item_id: 1,
    billing_group_id: 'g',
    subgroup_id: 's',
    role: 'member',
    manager_id: team.manager.id,
  });
  expect(created.status, created.text).toBe(201);
  const gone = { id: Number(created.body.members.members.user_id), org_id: team.vendor.org_id } as Member;
  await callsOf(gone, '2026-11-21', [{ disposition: 'Busy' }]);
  expect((await as(team.vendor).delete(`/rest/1/members/${gone.id}`)).status).toBe(204);
  for (const who of [team.manager, team.vendor]) {
    expect((await perDay(who, `${WEEK}&member_id=${gone.id}`)).body.usage_days.days[2]).toEqual(day('2026-11-21', { calls: 1 }));
    expect((await perLabel(who, `${WEEK}&member_id=${gone.id}`)).body.usage_dispositions.dispositions).toEqual([
      { disposition: 'Busy', calls: 1 },
    ]);
  }
  expect((await perDay(team.rep, `${WEEK}&member_id=${gone.id}`)).status).toBe(400);
});

describe.each([
  ['days', perDay],
  ['dispositions', perLabel],
])('the rules of /usage/%s', (_name, read) => {
  it.each([
    ['a rep naming a teammate', () => team.rep, () => team.teammate],
    ['a manager naming a member of another team', () => team.manager, () => team.outsider],
    ['the vendor naming a member of another organisation', () => team.vendor, () => team.otherVendor],
  ])('answers 400 naming member_id to %s', async (_who, who, named) => {
    const reply = await read(who(), `${WEEK}&member_id=${named().id}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([
      expect.objectContaining({ code: 40004, field: 'member_id', reason: expect.stringContaining(String(named().id)) }),
    ]);
  });

  it.each([
    ['', ['date_start', 'date_end']],
    ['date_start=2026-11-01', ['date_end']],
    ['date_start=2026-02-30&date_end=2026-03-01', ['date_start']],
    ['date_start=2026-11-02&date_end=2026-11-01', ['date_end']],
    [`${WEEK}&member_id=abc`, ['member_id']],
    [`${WEEK}&member_id=0`, ['member_id']],
    [`${WEEK}&member_id=999999`, ['member_id']],
  ])('answers 400 to ?%s naming %j', async (query, fields) => {
    const reply = await read(team.vendor, query);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: { field: string }) => d.field)).toEqual(fields);
  });

  it('refuses more than 90 days with 403, as /usage does', async () => {
    const reply = await read(team.rep, 'date_start=2026-08-23&date_end=2026-11-22');
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40301]);
    expect(reply.body.debug_codes[0].reason).toMatch(/90 days/);
  });
});

describe('GET /rest/1/dialsession?member_id= (the usage drill-down)', () => {
  const sessionsOf = async (who: Member, query: string) => {
    const reply = await as(who).get(`/rest/1/dialsession?${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.dialsessions.dialsessions.map(
      (s: { member_id: string; start_when: string }) => `${s.member_id} ${s.start_when.slice(0, 10)}`,
    );
  };

  it.each([
    [
      'a manager, one member of its team',
      () => team.manager,
      () => team.rep,
      [
        ['rep', '2026-11-22'],
        ['rep', '2026-11-20'],
      ],
    ],
    ["the vendor, a member outside the manager's team", () => team.vendor, () => team.outsider, [['outsider', '2026-11-22']]],
    [
      'a rep, itself',
      () => team.rep,
      () => team.rep,
      [
        ['rep', '2026-11-22'],
        ['rep', '2026-11-20'],
      ],
    ],
  ] as const)("lists only that member's sessions in the days to %s", async (_who, who, only, expected) => {
    const names = { rep: team.rep.id, outsider: team.outsider.id };
    expect(await sessionsOf(who(), `${WEEK}&member_id=${only().id}`)).toEqual(expected.map(([name, d]) => `${names[name]} ${d}`));
  });

  it.each([
    ['a rep naming a teammate', () => team.rep, () => team.teammate],
    ['a manager naming a member of another team', () => team.manager, () => team.outsider],
    ['the vendor naming a member of another organisation', () => team.vendor, () => team.otherVendor],
  ])('answers 400 naming member_id to %s', async (_who, who, named) => {
    const reply = await as(who()).get(`/rest/1/dialsession?member_id=${named().id}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([
      expect.objectContaining({ field: 'member_id', reason: expect.stringContaining(String(named().id)) }),
    ]);
  });
});
