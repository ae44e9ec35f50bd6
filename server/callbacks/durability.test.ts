import { afterAll, beforeAll, expect, it } from 'vitest';
import { personalToken } from '../auth/tokens.js';
import { openStore, type Store } from '../db/database.js';
import { type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from '../test/process.js';
import { testStoreFolder } from '../test/process-store.js';
import { type Receiver, startReceiver } from '../test/receiver.js';
import { openStream } from '../test/sse.js';

/*
 * Nothing acknowledged is lost: callbacks a session wrote to the outbox survive kill -9 of the server, and the next
 * server on the same store delivers every one of them. On the test store: with TEST_DATABASE=postgres the killed
 * server's transactions end with its connections, and the next one takes its leases over in the same database.
 */
let folder: StoreFolder;
/** The test's own look at the store, as a third process would have. */
let store: Store;
let receiver: Receiver;
let server: ServerProcess | undefined;
let token: string;

const SETTINGS = { CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1', WORKERS: '2', LOG_LEVEL: 'error' };
/* A weekday afternoon in every US zone; the restart starts its clock later still, past every retry and lease. */
const AFTERNOON = '2026-11-23T18:00:00Z';

beforeAll(async () => {
  folder = await testStoreFolder();
  const vendor = await vendorIn(folder, 'durable', 'a long password');
  token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
  store = await openStore(folder.databaseUrl);
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL').catch(() => undefined);
  await receiver?.close();
  await store?.close();
  await folder?.remove();
});

const pendingCallbacks = () => store.db.selectFrom('outbox').select(['id', 'state']).orderBy('id').execute();

it('delivers after a restart every callback that was pending when the server was killed with -9', async () => {
  receiver.failNext(10_000, 503);
  server = await startServerProcess(folder, { ...SETTINGS, CLOCK_START: AFTERNOON });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const contacts = [7, 8, 9, 8, 9].map((d, i) => ({ first_name: `Durable ${i}`, phone: `312474010${d}`, allow_duplicates: 1 }));
  const callbacks = ['api_contact_displayed', 'api_callbegin', 'api_calldone'].map((t) => ({
    callback_type: t,
    callback: `${receiver.url}/${t}`,
  }));
  const created = await (
    await fetch(`${server.url}/rest/1/dialsession`, { method: 'POST', headers: auth, body: JSON.stringify({ contacts, callbacks }) })
  ).json();
  const id = created.dialsessions.dialsession_id;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, { authorization: `Bearer ${token}` });
  expect((await fetch(`${server.url}/rest/1/dialsession/${id}/start`, { method: 'POST', headers: auth })).status).toBe(200);
  // Every contact's three callbacks are acknowledged (in the outbox) before the kill: the last api_calldone is written in
  // the transaction that completes the session. The receiver has refused every one it was sent.
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete', 30_000);
  stream.close();
  await receiver.waitFor(1);
  await server.stop('SIGKILL');
  const acknowledged = await pendingCallbacks();
  expect(acknowledged).toHaveLength(15);
  expect(acknowledged.every((r) => r.state === 'pending')).toBe(true);

  receiver.answerAll();
  receiver.received.splice(0);
  const later = new Date(Date.parse(AFTERNOON) + 10 * 60_000).toISOString();
  server = await startServerProcess(folder, { ...SETTINGS, CLOCK_START: later });
  await receiver.waitFor(15, 20_000);
  const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
  expect([...ids].sort()).toEqual(acknowledged.map((r) => `msg_${r.id}`).sort());
  for (let i = 0; i < 100 && (await pendingCallbacks()).some((r) => r.state !== 'delivered'); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect((await pendingCallbacks()).every((r) => r.state === 'delivered')).toBe(true);
}, 90_000);
