import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/*
 * record_calls through the dialer and the simulated carrier: with recording off, the next call a person answers is
 * placed without recording (the carrier announces none, the call says 'none', api_calldone has no recording_url);
 * turned on again, the next one is recorded.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let receiver: Receiver;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1' }));
  receiver = await startReceiver();
});
afterAll(async () => {
  resetClock();
  await receiver?.close();
  await server?.close();
});

const stateIs = (callState: string) => (e: SseEvent) => e.event === 'state' && e.data.call_state === callState;

/** A session of one contact who answers: connected, hung up, dispositioned. Answers the call's id. */
async function answeredCall(rep: Caller, member: Member, name: string): Promise<string> {
  const created = await rep.post('/rest/1/dialsession', {
    contacts: [{ first_name: name, phone: '3124780001', allow_duplicates: 1 }],
    callbacks: [{ callback_type: 'api_calldone', callback: `${receiver.url}/done/${name}` }],
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(member)}`,
  });
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor(stateIs('Connected'));
  await rep.post(`/rest/1/dialsession/${id}/hangup`);
  const live = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live;
  await rep.post(`/rest/1/dialsession/${id}/disposition`, {
    disposition_id: live.dispositions.find((d: { label: string }) => d.label === 'Interested').disposition_id,
  });
  await stream.waitFor(stateIs('Session complete'));
  stream.close();
  return live.call.call_id;
}

/** The api_calldone of the session named `name`, once `count` callbacks have arrived. */
const callDone = async (name: string, count: number) => {
  const received = (await receiver.waitFor(count, 20_000)).find((r) => r.path === `/done/${name}`);
  return JSON.parse(received!.body);
};

it('with recording off the next answered call is not recorded; turned on again, the next one is', async () => {
  const vendor = as(team.vendor);
  const rep = as(team.rep);
  expect((await vendor.put('/rest/1/dialsession/settings', { record_calls: 0 })).status).toBe(200);
  const unrecorded = await answeredCall(rep, team.rep, 'Quiet');
  const call = (await rep.get(`/rest/1/dialsession/call/${unrecorded}?include_recording=1`)).body.call.call;
  expect([call.connected, call.recording_status, call.recording_url, call.transcript_status]).toEqual(['1', 'none', null, 'none']);
  expect((await callDone('Quiet', 1)).recording_url).toBeNull();

  expect((await vendor.put('/rest/1/dialsession/settings', { record_calls: 1 })).status).toBe(200);
  const recorded = await answeredCall(rep, team.rep, 'Heard');
  expect((await callDone('Heard', 2)).recording_url).toBe(`${server.ctx.config.publicUrl}/rest/1/dialsession/call/${recorded}/recording`);
  await expect
    .poll(async () => (await rep.get(`/rest/1/dialsession/call/${recorded}`)).body.call.call.recording_status, { timeout: 30_000 })
    .toBe('stored');
  // The first call stays unrecorded: the carrier never announced a recording of it.
  const rows = await server.ctx.store.db.selectFrom('recordings').select('call_id').execute();
  expect(rows.map((r) => String(r.call_id))).toEqual([recorded]);
}, 60_000);
