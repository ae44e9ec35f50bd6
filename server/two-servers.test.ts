import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from './auth/login-throttle.js';
import { personalToken } from './auth/tokens.js';
import { onPostgres } from './test/databases.js';
import { freePort, freshRequest, type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from './test/process.js';
import { testStoreFolder } from './test/process-store.js';
import { type Receiver, startReceiver } from './test/receiver.js';
import { openStream, type SseEvent, type SseStream } from './test/sse.js';

/*
 * Issue 16: two `npm start`s (two server processes, each with its own pool, record cache and background work) on one
 * PostgreSQL serve one organisation as one. The first runs the simulated carrier; the second reaches it by address.
 * Streams poll for events once an hour here (EVENT_POLL_SECONDS): what one server writes reaches the other's open
 * streams by LISTEN/NOTIFY, or not at all. Requests go to both at once, each on a connection of its own. The carrier
 * runs at a quarter of real time: the engine gives up on a ringing call after (ring time + 15 s) scaled, which at
 * 0.02 is under a second, less than a carrier event can take on a loaded machine.
 */
describe.runIf(onPostgres)('two servers on one PostgreSQL', () => {
  let folder: StoreFolder;
  let receiver: Receiver;
  let one: ServerProcess;
  let two: ServerProcess;
  let token: string;
  const username = `two${process.pid}`;
  const password = 'a long password';
  /* A weekday afternoon in every US zone (calling hours), on both servers' clocks, however far apart they start. */
  const realStart = Date.now();
  const afternoon = () => new Date(Date.parse('2026-11-23T18:00:00Z') + Date.now() - realStart).toISOString();

  beforeAll(async () => {
    folder = await testStoreFolder();
    const vendor = await vendorIn(folder, username, password);
    token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
    receiver = await startReceiver();
    const carrierPort = await freePort();
    const shared = {
      WORKERS: '1',
      CARRIER_SECRET: crypto.randomBytes(24).toString('hex'),
      CARRIER_TIME_SCALE: '0.25',
      CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
      EVENT_POLL_SECONDS: '3600',
      TRANSCRIBER: 'none',
      LOG_LEVEL: 'error',
    };
    one = await startServerProcess(folder, { ...shared, CARRIER_PORT: String(carrierPort), CLOCK_START: afternoon() });
    two = await startServerProcess(folder, { ...shared, CARRIER_URL: `http://127.0.0.1:${carrierPort}`, CLOCK_START: afternoon() });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([one?.stop('SIGKILL'), two?.stop('SIGKILL')]);
    await receiver?.close();
    await folder?.remove();
  });

  /** A request to one server or the other, on a connection of its own. */
  const call = (server: ServerProcess, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    freshRequest(server.url, token, method, url, body, headers);
  const either = (i: number) => (i % 2 ? two : one);

  it('streams on both servers get every event of a session once and in order, whichever server wrote it', async () => {
    const contacts = [0, 8, 0, 9, 0].map((d, i) => ({ first_name: `Two${i}`, phone: `312476${String(100 + i)}${d}`, allow_duplicates: 1 }));
    const callbacks = ['api_callbegin', 'api_calldone'].map((t) => ({ callback_type: t, callback: `${receiver.url}/${t}` }));
    const made = await call(one, 'POST', '/rest/1/dialsession', { contacts, callbacks });
    expect(made.status).toBe(201);
    const id = made.body.dialsessions.dialsession_id as string;
    const auth = { authorization: `Bearer ${token}` };
    const streams: SseStream[] = [
      await openStream(`${one.url}/rest/1/dialsession/${id}/events?after=0`, auth),
      await openStream(`${two.url}/rest/1/dialsession/${id}/events?after=0`, auth),
    ];
    const state = (position: number, callState: string) => (e: SseEvent) =>
      e.event === 'state' && e.data.position === position && e.data.call_state === callState;

    // Started on the second server, which reaches the first's carrier; the carrier reports to the first.
    expect((await call(two, 'POST', `/rest/1/dialsession/${id}/start`)).status).toBe(200);
    const live = await call(one, 'GET', `/rest/1/dialsession/${id}/live`);
    const interested = live.body.live.dispositions.find((d: { label: string }) => d.label === 'Interested').disposition_id;
    for (const [i, position] of [0, 2, 4].entries()) {
      await Promise.all(streams.map((s) => s.waitFor(state(position, 'Connected'))));
      // Hung up through one server, dispositioned through the other: each takes effect, and both streams see it.
      expect((await call(either(i), 'POST', `/rest/1/dialsession/${id}/hangup`)).status).toBe(200);
      await Promise.all(
        streams.map((s) => s.waitFor((e) => e.event === 'state' && e.data.position === position && e.data.call_state !== 'Connected')),
      );
      expect((await call(either(i + 1), 'POST', `/rest/1/dialsession/${id}/disposition`, { disposition_id: interested })).status).toBe(200);
    }
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete')));
    for (const s of streams) s.close();

    const [a, b] = streams.map((s) => s.events.filter((e) => e.id).map((e) => Number(e.id)));
    expect(b).toEqual(a);
    expect(a).toEqual([...a!].sort((x, y) => x - y));
    expect(new Set(a).size).toBe(a!.length);

    // Each callback once, though both servers deliver the outbox.
    const got = await receiver.waitFor(10);
    expect(got.map((r) => r.path).filter((p) => p === '/api_calldone')).toHaveLength(5);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(got.length);
    const session = await call(two, 'GET', `/rest/1/dialsession/${id}`);
    expect(session.body.dialsessions.dialsessions).toMatchObject({ status: 'ended', call_count: 5 });
  }, 90_000);

  it('counts sign-in attempts across both servers: 100 wrong passwords at once, only the limit checked', async () => {
    const signIn = (server: ServerProcess, pass: string) =>
      fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ringbook-request': '1', connection: 'close' },
        body: JSON.stringify({ username, password: pass }),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn(either(i), 'a wrong password')));
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.pair);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - SIGN_IN_LIMITS.pair);
    expect(await signIn(two, password)).toBe(429);
  }, 60_000);

  it('creates one contact of ten creations of one address sent to both servers at once', async () => {
    const email = `once-${process.pid}@two.test`;
    const made = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(either(i), 'POST', '/rest/1/contacts', { first_name: `Once${i}`, email })),
    );
    expect(made.map((m) => m.status)).toEqual(Array(10).fill(201));
    expect(made.map((m) => m.body.contacts.contacts.duplicate_action).filter((a) => a === 'created')).toHaveLength(1);
    const ids = new Set(made.map((m) => m.body.contacts.contacts.contact_user_id));
    expect(ids.size).toBe(1);
    const found = await call(two, 'GET', `/rest/1/contacts?search=${encodeURIComponent(email)}`);
    expect(found.body.contacts.total_results).toBe(1);
  }, 60_000);

  it('makes one session of ten requests with one Idempotency-Key sent to both servers at once', async () => {
    const body = { contacts: [{ first_name: 'Keyed', phone: '3124769990', allow_duplicates: 1 }], preview_mode: 1 };
    const key = { 'idempotency-key': `two-${process.pid}` };
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => call(either(i), 'POST', '/rest/1/dialsession', body, key)));
    expect(made.map((m) => m.status)).toEqual(Array(10).fill(201));
    expect(new Set(made.map((m) => m.body.dialsessions.dialsession_id)).size).toBe(1);
  }, 60_000);

  it('runs bulk jobs queued on both servers once each, every contact changed once', async () => {
    const count = 600;
    for (let i = 0; i < count; i += 20) {
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          call(either(j), 'POST', '/rest/1/contacts', { first_name: 'Bulk', last_name: `Two${i + j}`, allow_duplicates: 1 }),
        ),
      );
      expect(made.map((m) => m.status).every((st) => st === 201)).toBe(true);
    }
    const jobs = await Promise.all(
      [one, two].map((server, i) =>
        call(server, 'POST', '/rest/1/bulkjobs', { action: 'add_tag', tag: `Shared ${i}`, filter: { search: 'Bulk' } }),
      ),
    );
    expect(jobs.map((j) => j.status)).toEqual([202, 202]);
    for (const [i, job] of jobs.entries()) {
      let progress = job.body.job;
      while (!['done', 'failed'].includes(progress.status)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        progress = (await call(either(i + 1), 'GET', `/rest/1/bulkjobs/${job.body.job.bulk_job_id}`)).body.job;
      }
      expect(progress).toMatchObject({ status: 'done', processed: count, changed: count });
    }
    const tags = (await call(two, 'GET', '/rest/1/tags?with_counts=1')).body.tags.tags as { title: string; contact_count: number }[];
    expect(
      tags
        .filter((t) => t.title.startsWith('Shared '))
        .map((t) => [t.title, t.contact_count])
        .sort(),
    ).toEqual([
      ['Shared 0', count],
      ['Shared 1', count],
    ]);
  }, 180_000);
});
