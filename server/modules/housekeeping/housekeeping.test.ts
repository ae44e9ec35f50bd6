import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueCallback } from '../../callbacks/outbox.repository.js';
import { nowMs, resetClock, setClock } from '../../lib/clock.js';
import { now } from '../../lib/time.js';
import { type Caller, serverWithTeam, TEST_PASSWORD, type Team, type TestServer } from '../../test/harness.js';
import { insertEvent } from '../dial-sessions/dial-events.repository.js';

/* Housekeeping: what has served its purpose goes after its retention, what may still be needed stays. */
let server: TestServer;
let team: Team;
let rep: Caller;

const LONG_AGO = new Date('2026-09-01T12:00:00Z');
const TODAY = new Date('2026-11-23T18:00:00Z');

beforeAll(async () => {
  setClock(LONG_AGO);
  let api;
  ({ server, team, api } = await serverWithTeam({ CALLBACK_ALLOWED_HOSTS: 'receiver.test' }));
  rep = api(team.rep);
  // Callbacks stay as the test settles them: nothing delivers them meanwhile.
  await server.ctx.dialer.delivery.stop();
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

const db = () => server.ctx.store.db;
const count = async (table: 'outbox' | 'emails' | 'dial_events' | 'bulk_jobs' | 'sessions' | 'sign_in_attempts') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const signIn = (username: string, password: string) =>
  server.as().raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
    body: JSON.stringify({ username, password }),
  });
let n = 0;

/** What a day of use leaves: a dial session's events and callbacks, a finished bulk job, a web session, sign-in counts. */
async function useTheProduct(callbacks: number, settle: 'delivered' | 'failed' | 'pending') {
  const session = await rep.post('/rest/1/dialsession', { contacts: [{ first_name: 'Kept', phone: '3124720100' }] });
  expect(session.status, session.text).toBe(201);
  const sessionId = Number(session.body.dialsessions.dialsession_id);
  const start = Number(
    (
      await db()
        .selectFrom('outbox')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0,
  );
  await server.ctx.store.write(async (tx) => {
    for (let i = 0; i < 3; i++) await insertEvent(tx, sessionId, 'contact_displayed', { position: i }, now());
    await enqueueCallback(
      tx,
      Array.from({ length: callbacks }, () => ({
        orgId: team.rep.org_id,
        sessionId,
        type: 'api_calldone',
        url: 'https://receiver.test/done',
        body: '{}',
      })),
      nowMs(),
    );
    if (settle !== 'pending') await tx.updateTable('outbox').set({ state: settle }).where('id', '>', start).execute();
  });
  const job = await rep.post('/rest/1/bulkjobs', { action: 'add_tag', tag: 'Swept', filter: { search: 'Kept' } });
  expect(job.status, job.text).toBe(202);
  await expect.poll(async () => (await rep.get(`/rest/1/bulkjobs/${job.body.job.bulk_job_id}`)).body.job.status).toBe('done');
  expect((await signIn(`nobody${++n}`, 'not the password')).status).toBe(401);
  const signedIn = await signIn(team.rep.username, TEST_PASSWORD);
  expect(signedIn.status).toBe(200);
  return signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('rb_session='))!
    .split(';')[0]!;
}

let emailCall = 0;
/** Disposition e-mails in these states, queued now (by the product's clock). */
async function emails(states: ('pending' | 'sent' | 'failed')[]) {
  await server.ctx.store.write((tx) =>
    tx
      .insertInto('emails')
      .values(
        states.map((state) => ({
          call_id: 800_000 + ++emailCall,
          org_id: team.rep.org_id,
          member_id: team.rep.id,
          message_id: 1,
          to_address: 'kept@example.com',
          from_name: 'Rick',
          from_address: 'rick@example.com',
          subject: 'S',
          body: 'B',
          state,
          next_attempt_at_ms: nowMs(),
          created_at_ms: nowMs(),
        })),
      )
      .execute(),
  );
}

it('a pass deletes settled callbacks and e-mails, old dial events, finished jobs, ended web sessions and closed sign-in windows, and keeps the rest', async () => {
  // Long ago: a pending callback first (it must not stop the pass), then more settled ones than a chunk holds.
  await useTheProduct(1, 'pending');
  await useTheProduct(1_200, 'delivered');
  await useTheProduct(300, 'failed');
  await emails(['pending', 'sent', 'failed']);
  const old = {
    outbox: await count('outbox'),
    dial_events: await count('dial_events'),
    bulk_jobs: await count('bulk_jobs'),
    sessions: await count('sessions'),
  };

  setClock(TODAY);
  const cookie = await useTheProduct(5, 'delivered');
  await emails(['sent']);
  const all = {
    outbox: await count('outbox'),
    dial_events: await count('dial_events'),
    bulk_jobs: await count('bulk_jobs'),
    sessions: await count('sessions'),
    sign_in_attempts: await count('sign_in_attempts'),
  };

  // Sign-in counts are kept per key (an address's is reused today): those whose window closed before today's go.
  const closedWindows = (
    await db().selectFrom('sign_in_attempts').select('key').where('window_started_at', '<', '2026-11-23 17:00:00').execute()
  ).length;
  expect(closedWindows).toBeGreaterThan(0);
  const taken = await server.ctx.housekeeper.runOnce();
  expect(taken).toEqual({
    callbacks: old.outbox - 1,
    emails: 2,
    dialEvents: old.dial_events,
    bulkJobs: old.bulk_jobs,
    webSessions: old.sessions,
    signInCounts: closedWindows,
    oauthCodes: 0,
    expectedRecordings: 0,
    imports: 0,
    recordings: 0,
  });
  expect(old.outbox).toBe(1_501);
  expect(old.bulk_jobs).toBe(3);
  expect(await count('outbox')).toBe(all.outbox - old.outbox + 1);
  expect((await db().selectFrom('emails').select('state').orderBy('id').execute()).map((r) => r.state)).toEqual(['pending', 'sent']);
  expect(await db().selectFrom('outbox').select('state').where('state', '=', 'pending').execute()).toHaveLength(1);
  expect(await count('dial_events')).toBe(all.dial_events - old.dial_events);
  expect(await count('bulk_jobs')).toBe(1);
  expect(await count('sessions')).toBe(all.sessions - old.sessions);
  expect(await count('sign_in_attempts')).toBe(all.sign_in_attempts - closedWindows);

  // Today's session still signs the browser in; a second pass finds nothing more.
  expect((await server.as().raw('/auth/session', { headers: { cookie, 'x-ringbook-request': '1' } })).status).toBe(200);
  expect(await server.ctx.housekeeper.runOnce()).toEqual({
    callbacks: 0,
    emails: 0,
    dialEvents: 0,
    bulkJobs: 0,
    webSessions: 0,
    signInCounts: 0,
    oauthCodes: 0,
    expectedRecordings: 0,
    imports: 0,
    recordings: 0,
  });
});

it('a pass lets go of imports a month after they ended and of uploads cut off a day ago, their rows a chunk at a time, and keeps the rest', async () => {
  setClock(TODAY);
  const imports: Record<string, number> = {};
  const anImport = async (
    name: string,
    status: 'done' | 'uploaded' | 'staging' | 'running',
    createdAt: string,
    endedAt: string | null,
    rows: number,
  ) => {
    const { id } = await server.ctx.store.write((tx) =>
      tx
        .insertInto('imports')
        .values({
          org_id: team.rep.org_id,
          member_id: team.rep.id,
          filename: `${name}.csv`,
          byte_size: 10,
          encoding: 'utf-8',
          delimiter: ',',
          header: '["Name"]',
          samples: '[[]]',
          row_count: rows,
          status,
          created_at: createdAt,
          finished_at: endedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    for (let from = 1; from <= rows; from += 500) {
      const chunk = Array.from({ length: Math.min(500, rows - from + 1) }, (_, i) => ({
        import_id: id,
        row_no: from + i,
        fields: '["x"]',
      }));
      await server.ctx.store.write((tx) => tx.insertInto('import_rows').values(chunk).execute());
    }
    imports[name] = id;
  };
  await anImport('doneLongAgo', 'done', '2026-09-01 10:00:00', '2026-09-01 10:05:00', 2_500);
  await anImport('neverRunLongAgo', 'uploaded', '2026-09-02 10:00:00', null, 3);
  await anImport('cutOffYesterday', 'staging', '2026-11-22 10:00:00', null, 4);
  await anImport('doneLastWeek', 'done', '2026-11-16 10:00:00', '2026-11-16 10:05:00', 5);
  await anImport('uploadingNow', 'staging', '2026-11-23 17:59:00', null, 6);
  await anImport('runningLongAgo', 'running', '2026-09-03 10:00:00', null, 7);

  const taken = await server.ctx.housekeeper.runOnce();
  expect(taken.imports).toBe(2_500 + 3 + 4 + 3);
  const left = await db().selectFrom('imports').select('id').where('id', 'in', Object.values(imports)).orderBy('id').execute();
  expect(left.map((r) => r.id)).toEqual([imports.doneLastWeek, imports.uploadingNow, imports.runningLongAgo]);
  const rowsLeft = await db()
    .selectFrom('import_rows')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('import_id', 'in', Object.values(imports))
    .executeTakeFirstOrThrow();
  expect(Number(rowsLeft.n)).toBe(5 + 6 + 7);
  expect((await server.ctx.housekeeper.runOnce()).imports).toBe(0);
});
