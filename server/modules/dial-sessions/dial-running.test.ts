import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalToken } from '../../auth/tokens.js';
import { migrations, openStore } from '../../db/database.js';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { freshRequest, type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from '../../test/process.js';
import { testStoreFolder } from '../../test/process-store.js';
import { isSecondRunningSession } from './dial-sessions.repository.js';

/*
 * Issue 15, the dialer: one running session per rep. A member may have many sessions made, but only one started and
 * not ended; a start while another runs is 409 naming it, and changes nothing. GET /rest/1/dialsession?status= finds it.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

let n = 0;
/** A preview session: once started it waits on its first contact, so it stays running until ended. */
async function newSession(api: Caller): Promise<string> {
  const reply = await api.post('/rest/1/dialsession', {
    contacts: [{ first_name: `Run${++n}`, last_name: 'Test', phone: `312475${String((n % 900) + 100)}1`, allow_duplicates: 1 }],
    preview_mode: 1,
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.dialsessions.dialsession_id;
}
const statusOf = async (api: Caller, id: string) => (await api.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.status;
const listed = async (api: Caller, query: string) => {
  const reply = await api.get(`/rest/1/dialsession?${query}`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.dialsessions.dialsessions as { dialsession_id: string }[]).map((s) => s.dialsession_id);
};
const running = (id: string) => `You are already running dial session ${id}: resume it or end it first.`;

describe('one running session per member', () => {
  it('lets one of two starts at once through; the other is 409 naming it, and changes nothing', async () => {
    const rep = as(team.rep);
    const [a, b] = [await newSession(rep), await newSession(rep)];
    const [first, second] = await Promise.all([rep.post(`/rest/1/dialsession/${a}/start`), rep.post(`/rest/1/dialsession/${b}/start`)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const [winner, loser, refused] = first.status === 200 ? [a, b, second] : [b, a, first];
    expect(refused.body.debug_codes).toEqual([{ code: 40901, reason: running(winner) }]);
    expect([await statusOf(rep, winner), await statusOf(rep, loser)]).toEqual(['active', 'ready']);
    expect((await rep.get(`/rest/1/dialsession/${loser}/live`)).body.live).toMatchObject({ call_state: 'Ready to start', position: null });
    // Starting the running one again is no conflict with itself.
    expect((await rep.post(`/rest/1/dialsession/${winner}/start`)).status).toBe(200);

    // Another member runs its own session meanwhile.
    const mate = as(team.teammate);
    const theirs = await newSession(mate);
    expect((await mate.post(`/rest/1/dialsession/${theirs}/start`)).status).toBe(200);

    // Once the running one has ended, the other starts.
    expect((await rep.post(`/rest/1/dialsession/${winner}/end`)).status).toBe(200);
    expect((await rep.post(`/rest/1/dialsession/${loser}/start`)).status).toBe(200);
    expect(await statusOf(rep, loser)).toBe('active');
    await Promise.all([rep.post(`/rest/1/dialsession/${loser}/end`), mate.post(`/rest/1/dialsession/${theirs}/end`)]);
  });

  it('is kept by the store too: a second running session of one member is refused by its index', async () => {
    const rep = as(team.rep);
    const [a, b] = [Number(await newSession(rep)), Number(await newSession(rep))];
    const error = await server.ctx.store
      .write((tx) => tx.updateTable('dial_sessions').set({ status: 'active' }).where('id', 'in', [a, b]).execute())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isSecondRunningSession(error)).toBe(true);
    expect([await statusOf(rep, String(a)), await statusOf(rep, String(b))]).toEqual(['ready', 'ready']);
  });
});

describe('GET /rest/1/dialsession?status=&member_id=', () => {
  it("lists the sessions of a status, of one member of the caller's team", async () => {
    const rep = as(team.rep);
    const [ended, active, ready] = [await newSession(rep), await newSession(rep), await newSession(rep)];
    await rep.post(`/rest/1/dialsession/${ended}/end`);
    await rep.post(`/rest/1/dialsession/${active}/start`);
    const mine = `member_id=${team.rep.id}`;
    expect(await listed(rep, `status=active&${mine}`)).toEqual([active]);
    expect(await listed(rep, 'status=active')).toEqual([active]);
    expect(await listed(rep, `status=ready&${mine}`)).toContain(ready);
    expect(await listed(rep, `status=ready&${mine}`)).not.toContain(active);
    expect(await listed(rep, `status=ended&${mine}`)).toContain(ended);

    const mate = as(team.teammate);
    const theirs = await newSession(mate);
    await mate.post(`/rest/1/dialsession/${theirs}/start`);
    // A manager and the vendor see their team's running sessions, or one member's.
    expect(await listed(as(team.manager), 'status=active')).toEqual([theirs, active]);
    expect(await listed(as(team.manager), `status=active&member_id=${team.teammate.id}`)).toEqual([theirs]);
    expect(await listed(as(team.vendor), `status=active&${mine}`)).toEqual([active]);
    await Promise.all([rep.post(`/rest/1/dialsession/${active}/end`), mate.post(`/rest/1/dialsession/${theirs}/end`)]);
    expect(await listed(rep, `status=active&${mine}`)).toEqual([]);
  });

  it.each([
    ['a status it does not know', 'rep', 'status=running', 'status'],
    ['a member outside the team (a rep naming its teammate)', 'rep', 'member_id=teammate', 'member_id'],
    ['a member outside the team (a manager naming a rep of another)', 'manager', 'member_id=outsider', 'member_id'],
    ['a member of another organisation', 'vendor', 'member_id=otherVendor', 'member_id'],
  ] as const)('refuses %s with 400', async (_, who, query, field) => {
    const q = query.replace(/member_id=(\w+)/, (_m, name: keyof Team) => `member_id=${team[name].id}`);
    const reply = await as(team[who]).get(`/rest/1/dialsession?${q}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe(field);
  });
});

/* The rule is the store's (its partial unique index), so the two processes run on the test store. */
describe('two server processes', () => {
  let folder: StoreFolder;
  let proc: ServerProcess;
  let token: string;
  beforeAll(async () => {
    folder = await testStoreFolder();
    const vendor = await vendorIn(folder, `running${process.pid}`, 'a long password');
    token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
    proc = await startServerProcess(folder, {
      WORKERS: '2',
      CARRIER_TIME_SCALE: '0.02',
      CLOCK_START: '2026-11-23T18:00:00Z',
      LOG_LEVEL: 'error',
    });
  }, 90_000);
  afterAll(async () => {
    await proc?.stop();
    await folder?.remove();
  });

  /** A request on a connection of its own: the cluster hands it to either process. */
  const fresh = (method: string, p: string, body?: unknown) => freshRequest(proc.url, token, method, p, body);

  it('never lets two starts at once both through', async () => {
    for (let round = 0; round < 8; round++) {
      const ids: string[] = [];
      for (const i of [1, 2]) {
        const made = await fresh('POST', '/rest/1/dialsession', {
          contacts: [{ first_name: `P${round}x${i}`, phone: `31247610${round}${i}`, allow_duplicates: 1 }],
          preview_mode: 1,
        });
        expect(made.status).toBe(201);
        ids.push(made.body.dialsessions.dialsession_id);
      }
      const starts = await Promise.all(ids.map((id) => fresh('POST', `/rest/1/dialsession/${id}/start`)));
      expect(starts.map((s) => s.status).sort()).toEqual([200, 409]);
      const winner = ids[starts.findIndex((s) => s.status === 200)]!;
      expect(starts.find((s) => s.status === 409)!.body.debug_codes[0].reason).toBe(running(winner));
      const active = await fresh('GET', '/rest/1/dialsession?status=active');
      expect(active.body.dialsessions.dialsessions.map((s: { dialsession_id: string }) => s.dialsession_id)).toEqual([winner]);
      expect((await fresh('POST', `/rest/1/dialsession/${winner}/end`)).status).toBe(200);
    }
  }, 60_000);
});

it('ends all but the newest of the sessions a member was running when the store gains the rule', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-running-'));
  const file = path.join(dir, 'old.db');
  try {
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0014-recordings')).error).toBeUndefined();
    const at = '2026-01-01 00:00:00';
    const { id: orgId } = await old
      .insertInto('organisations')
      .values({ name: 'Old', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const members = await old
      .insertInto('members')
      .values(
        ['a', 'b'].map((username) => ({ org_id: orgId, role: 'member', username, password_hash: 'x', created_at: at, updated_at: at })),
      )
      .returning('id')
      .execute();
    const session = (memberId: number) => ({
      org_id: orgId,
      member_id: memberId,
      status: 'active',
      phase: 'waiting',
      position: 0,
      contact_count: 1,
      request_hash: 'h',
      created_at: at,
    });
    const [a, b] = members.map((m) => m.id as number) as [number, number];
    const ids = (
      await old
        .insertInto('dial_sessions')
        .values([session(a), session(a), session(a), session(b)])
        .returning('id')
        .execute()
    ).map((r) => r.id as number);
    await old.destroy();

    const store = await openStore(`sqlite:${file}`);
    try {
      const rows = await store.db.selectFrom('dial_sessions').select(['id', 'status', 'phase']).orderBy('id').execute();
      expect(rows.map((r) => [r.id, r.status])).toEqual([
        [ids[0], 'ended'],
        [ids[1], 'ended'],
        [ids[2], 'active'],
        [ids[3], 'active'],
      ]);
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
