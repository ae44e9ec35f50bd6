import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type TestServer } from '../../test/harness.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/*
 * A call the carrier records says its recording is pending from the moment it is answered (before, it said 'none'
 * until the carrier announced the file, a minute or so after the call: the call viewer could not tell "not recorded"
 * from "on its way"). A recording the carrier never announces is given up by the housekeeper an hour on, and the
 * call says it failed.
 */
let server: TestServer;
/** Two reps: a member runs one session at a time, and each test leaves its own running. */
let reps: { api: Caller; token: string }[];

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  const made = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' });
  server = made.server;
  reps = [made.team.rep, made.team.teammate].map((m) => ({ api: made.api(m), token: made.server.tokenOf(m) }));
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

const connected = (e: SseEvent) => e.event === 'state' && e.data.call_state === 'Connected';
async function connectedCall(phone: string, { api: rep, token } = reps[0]!) {
  const created = await rep.post('/rest/1/dialsession', { contacts: [{ first_name: 'Rec', phone, allow_duplicates: 1 }] });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, { authorization: `Bearer ${token}` });
  expect((await rep.post(`/rest/1/dialsession/${id}/start`)).status).toBe(200);
  await stream.waitFor(connected);
  const callOf = async () => (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls[0];
  return { id, stream, rep, callOf };
}

it("says a recorded call's recording is pending from its answer, and stored once fetched", async () => {
  const { id, stream, rep, callOf } = await connectedCall('3124760100');
  expect(await callOf()).toMatchObject({ recording_status: 'pending' });
  const recording = await rep.get(`/rest/1/dialsession/call/${(await callOf()).call_id}/recording`);
  expect(recording.status).toBe(404);
  expect(recording.text).toMatch(/still being stored/);
  expect((await rep.post(`/rest/1/dialsession/${id}/hangup`)).status).toBe(200);
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Call ended');
  stream.close();
  for (let i = 0; (await callOf()).recording_status !== 'stored'; i++) {
    expect(i).toBeLessThan(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

it('gives up a recording the carrier never announces after an hour: the call says it failed', async () => {
  const { stream, rep, callOf } = await connectedCall('3124760201', reps[1]);
  stream.close();
  // The carrier goes away with the call up: it will never announce its recording.
  await server.carrier!.close();
  expect(await callOf()).toMatchObject({ recording_status: 'pending' });
  expect((await server.ctx.housekeeper.runOnce()).expectedRecordings).toBe(0);
  setClock(new Date('2026-11-23T19:30:00Z'));
  expect((await server.ctx.housekeeper.runOnce()).expectedRecordings).toBe(1);
  expect(await callOf()).toMatchObject({ recording_status: 'failed' });
  expect((await rep.get(`/rest/1/dialsession/call/${(await callOf()).call_id}/recording`)).status).toBe(404);
});
