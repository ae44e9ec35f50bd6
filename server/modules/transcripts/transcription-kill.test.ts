import { afterAll, beforeAll, expect, it } from 'vitest';
import { personalToken } from '../../auth/tokens.js';
import { openStore } from '../../db/database.js';
import { type ServerProcess, startServerProcess, type StoreFolder, storeFolder, vendorIn } from '../../test/process.js';
import { openStream } from '../../test/sse.js';

/*
 * Issue 15, part 3: a server killed with kill -9 while it transcribes a call loses no transcript. The job's lease
 * runs out, the server started again on the same store takes it up, and the transcript ends summarized, once.
 */
let folder: StoreFolder;
let server: ServerProcess;
let token: string;
const ENV = {
  WORKERS: '1',
  CARRIER_TIME_SCALE: '0.02',
  TRANSCRIBER: 'pocketsphinx',
  TRANSCRIPTION_LEASE_SECONDS: '5',
  CLOCK_START: '2026-11-23T18:00:00Z',
};

beforeAll(async () => {
  folder = storeFolder();
  const vendor = await vendorIn(folder, `transcribed${process.pid}`, 'a long password');
  token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
  server = await startServerProcess(folder, ENV);
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await folder?.remove();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) },
  });

async function transcriptOf(callId: string) {
  const store = await openStore(folder.databaseUrl);
  try {
    return await store.db.selectFrom('transcripts').selectAll().where('call_id', '=', Number(callId)).execute();
  } finally {
    await store.close();
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('takes a transcript up again after its server was killed mid-way, and finishes it once', async () => {
  const created = await (
    await api('/rest/1/dialsession', {
      method: 'POST',
      body: JSON.stringify({ contacts: [{ first_name: 'Killed', phone: '3124790001' }] }),
    })
  ).json();
  const id = created.dialsessions.dialsession_id;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, { authorization: `Bearer ${token}` });
  await api(`/rest/1/dialsession/${id}/start`, { method: 'POST' });
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Connected');
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  await api(`/rest/1/dialsession/${id}/end`, { method: 'POST' });
  stream.close();
  const callId = (await (await api(`/rest/1/dialsession/${id}`)).json()).dialsessions.dialsessions.calls[0].call_id as string;

  await until(
    () => transcriptOf(callId),
    (rows) => rows[0]?.status === 'processing',
    60_000,
  );
  await server.stop('SIGKILL');
  server = await startServerProcess(folder, ENV);

  const [done, ...more] = await until(
    () => transcriptOf(callId),
    (rows) => ['summarized', 'failed'].includes(rows[0]?.status ?? ''),
    120_000,
  );
  expect(more).toEqual([]);
  expect(done).toMatchObject({ status: 'summarized', engine: 'pocketsphinx', lease_owner: null });
  expect(done!.attempts).toBeGreaterThanOrEqual(2);
  expect(JSON.parse(done!.segments!).length).toBeGreaterThan(0);
}, 240_000);
