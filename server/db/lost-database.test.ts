import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabase } from '../test/databases.js';
import { serverWithTeam, type Team, type TestServer } from '../test/harness.js';
import { openStore } from './database.js';
import { CommitUncertain } from './dialect.js';

/*
 * A lost database (docs/store.md, "A lost database"): the running server's PostgreSQL database is taken away from it
 * while reps create contacts, without touching the shared cluster: every backend of the test's database is terminated
 * again and again (57P01 under a statement, "Connection terminated unexpectedly" for a pooled connection), then the
 * database refuses connections for a while (`allow_connections false`, 55000 at connect). Every answer must be a 2xx
 * or a 503 with Retry-After in the error envelope, none may take longer than a bound, every contact acknowledged with
 * 201 must be there afterwards, and the same server must serve again once the database is back.
 */
const ANSWER_BOUND_MS = 20_000;
const WRITERS = 6;
/** How many answers of each kind a phase waits for before it ends (by count, not by time). */
const ENOUGH = 8;

type Answer = { status: number; retryAfter: string | null; body: any; ms: number; name: string; phase: string };

let server: TestServer;
let team: Team;
let admin: pg.Client;
let databaseName: string;

beforeAll(async () => {
  if (!onPostgres) return;
  ({ server, team } = await serverWithTeam());
  const url = new URL(server.ctx.config.databaseUrl);
  databaseName = url.pathname.slice(1);
  url.pathname = '/postgres';
  admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
}, 60_000);
afterAll(async () => {
  if (!onPostgres) return;
  await admin?.query(`alter database ${databaseName} allow_connections true`).catch(() => undefined);
  await admin?.end();
  await server?.close();
});

describe.runIf(onPostgres)('a lost PostgreSQL database', () => {
  it('answers 2xx or 503 with Retry-After while it is away, loses no acknowledged write, and serves again once it is back', async () => {
    const answers: Answer[] = [];
    let phase = 'terminating';
    let writing = true;
    let sequence = 0;
    // Wakes whoever waits for the answers to reach some condition.
    let notify: () => void = () => {};
    const until = (condition: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (condition() ? resolve() : (notify = check));
        check();
      });
    const count = (inPhase: string, status: number) => answers.filter((a) => a.phase === inPhase && a.status === status).length;

    const token = server.tokenOf(team.rep);
    const create = async () => {
      const name = `Lost${process.pid}n${++sequence}`;
      const started = performance.now();
      const atPhase = phase;
      try {
        const res = await fetch(`${server.url}/rest/1/contacts`, {
          method: 'POST',
          signal: AbortSignal.timeout(ANSWER_BOUND_MS),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ first_name: name, last_name: 'Faults', allow_duplicates: 1 }),
        });
        answers.push({
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: await res.json(),
          ms: performance.now() - started,
          name,
          phase: atPhase,
        });
      } catch (error) {
        // No answer within the bound (a hang), or the connection dropped: status 0, which the test refuses.
        answers.push({ status: 0, retryAfter: null, body: String(error), ms: performance.now() - started, name, phase: atPhase });
      }
      notify();
    };
    const writers = Array.from({ length: WRITERS }, async () => {
      while (writing) await create();
    });

    // Terminations paced by the load: one after every few answers, until enough of both kinds came back.
    const terminate = () =>
      admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [databaseName]);
    await until(() => count('terminating', 201) >= 1);
    while (count('terminating', 503) < ENOUGH || count('terminating', 201) < ENOUGH) {
      const seen = answers.length;
      await terminate();
      await until(() => answers.length >= seen + 3);
    }

    // The database refuses connections: every request fails at connect, quickly, with 503.
    phase = 'refusing';
    await admin.query(`alter database ${databaseName} allow_connections false`);
    await terminate();
    await until(() => count('refusing', 503) >= ENOUGH);

    // Back: the same server, not restarted, serves again.
    await admin.query(`alter database ${databaseName} allow_connections true`);
    phase = 'back';
    await until(() => count('back', 201) >= ENOUGH);
    writing = false;
    await Promise.all(writers);

    const unexpected = answers.filter((a) => a.status !== 201 && a.status !== 503);
    expect(unexpected.map((a) => `${a.status} in ${a.phase} after ${Math.round(a.ms)} ms: ${JSON.stringify(a.body)}`)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.retryAfter).toBe('1');
      expect(a.body).toMatchObject({
        http_status: 503,
        status: 'error',
        debug_codes: [{ code: expect.any(Number), reason: expect.any(String) }],
      });
      expect([50301, 50302]).toContain(a.body.debug_codes[0].code);
    }
    // Every contact acknowledged is stored, as acknowledged; those answered "nothing was applied" (50301) are not.
    const acknowledged = answers.filter((a) => a.status === 201);
    const ids = acknowledged.map((a) => Number(a.body.contacts.contacts.contact_user_id));
    const stored = await server.ctx.store.db.selectFrom('contacts').select(['id', 'first_name']).where('id', 'in', ids).execute();
    expect(new Map(stored.map((r) => [r.id, r.first_name]))).toEqual(new Map(acknowledged.map((a, i) => [ids[i]!, a.name])));
    const refused = answers.filter((a) => a.status === 503 && a.body.debug_codes[0].code === 50301).map((a) => a.name);
    const refusedStored = await server.ctx.store.db
      .selectFrom('contacts')
      .select('first_name')
      .where('first_name', 'in', refused.length ? refused : [''])
      .execute();
    expect(refusedStored).toEqual([]);

    // Each phase did what it was meant to: some writes refused, and the refusals stopped once the database was back.
    expect(count('terminating', 503)).toBeGreaterThanOrEqual(ENOUGH);
    expect(count('refusing', 503)).toBeGreaterThanOrEqual(ENOUGH);
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest).toBeLessThan(ANSWER_BOUND_MS);

    // Reads too, once back.
    const listed = await server.as(token).get('/rest/1/contacts?limit=1');
    expect(listed.status).toBe(200);
  }, 180_000);
});

describe.runIf(onPostgres)('a write whose connection is lost', () => {
  it('runs again on a new connection when it was lost before the commit, and is never reported done when lost at the commit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-lost-'));
    const database = await testDatabase(dir);
    const store = await openStore(database.url);
    try {
      await store.write(async (tx) => {
        await sql`create table lost_writes (id int primary key, die_at_commit boolean not null)`.execute(tx);
        // At the commit, a row asking for it ends its own backend: the connection goes while the commit is under way.
        await sql`create function lost_at_commit() returns trigger language plpgsql as $$
          begin if new.die_at_commit then perform pg_terminate_backend(pg_backend_pid()); end if; return null; end $$`.execute(tx);
        await sql`create constraint trigger lost_at_commit after insert on lost_writes deferrable initially deferred
          for each row execute function lost_at_commit()`.execute(tx);
      });
      let attempts = 0;
      await store.write(async (tx) => {
        attempts++;
        await sql`insert into lost_writes values (1, false)`.execute(tx);
        // The first attempt loses its connection in the middle of the transaction.
        if (attempts === 1) await sql`select pg_terminate_backend(pg_backend_pid())`.execute(tx);
      });
      expect(attempts).toBe(2);
      await expect(store.write((tx) => sql`insert into lost_writes values (2, true)`.execute(tx))).rejects.toBeInstanceOf(CommitUncertain);
      // The store serves on after both.
      const rows = await sql<{ id: number }>`select id from lost_writes order by id`.execute(store.db);
      expect(rows.rows.map((r) => r.id)).toEqual([1]);
    } finally {
      await store.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
