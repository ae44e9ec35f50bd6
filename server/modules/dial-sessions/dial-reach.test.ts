import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { type Receiver, startReceiver } from '../../test/receiver.js';
import { openStream, type SseEvent, type SseStream } from '../../test/sse.js';

/*
 * Issue 19, finding 3: a session may only show, dial, change or send what its member may see at that moment. A
 * contact the vendor transfers out of the rep's team meanwhile is passed over (with a reason on the queue), is not
 * written to, and its callbacks tell nothing of it as it now is.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
let vendor: Caller;
let receiver: Receiver;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02', CALLBACK_ALLOWED_HOSTS: '127.0.0.1' }));
  rep = api(team.rep);
  vendor = api(team.vendor);
  receiver = await startReceiver();
});
afterAll(async () => {
  resetClock();
  await receiver?.close();
  await server?.close();
});
beforeEach(() => void receiver.received.splice(0));

let n = 0;
const TYPES = ['api_contact_displayed', 'api_callbegin', 'api_calldone'];
const contact = (lastDigit: number) => ({
  first_name: `Reach${++n}`,
  last_name: 'Test',
  phone: `312474${String((n % 900) + 100)}${lastDigit}`,
  allow_duplicates: 1,
});
const stateIs = (position: number, callState: string) => (e: SseEvent) =>
  e.event === 'state' && e.data.position === position && e.data.call_state === callState;
const complete = (e: SseEvent) => e.event === 'state' && e.data.call_state === 'Session complete';

async function launch(contacts: object[], previewMode = 0): Promise<{ id: string; ids: string[]; stream: SseStream }> {
  const created = await rep.post('/rest/1/dialsession', {
    contacts,
    preview_mode: previewMode,
    callbacks: TYPES.map((t) => ({ callback_type: t, callback: `${receiver.url}/${t}` })),
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.dialsessions.dialsession_id as string;
  const live = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(team.rep)}`,
  });
  return { id, ids: live.queue.map((q: { contact_user_id: string }) => q.contact_user_id), stream };
}

const transferAway = async (contactId: string) =>
  expect((await vendor.put(`/rest/1/contacts/${contactId}`, { transfer_to_user_id: team.outsider.id })).status).toBe(200);

it('passes over, without calling it, a contact moved away while it waits in preview', async () => {
  const { id, ids, stream } = await launch([contact(3), contact(8)], 1);
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor(stateIs(0, 'Ready to call'));
  await transferAway(ids[0]!);
  expect((await rep.get(`/rest/1/contacts/${ids[0]}`)).status).toBe(404);

  expect((await rep.post(`/rest/1/dialsession/${id}/call`)).status).toBe(200);
  await stream.waitFor(stateIs(0, 'Skipped'));
  await stream.waitFor(stateIs(1, 'Ready to call'));
  const live = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live;
  expect(live.queue[0]).toMatchObject({
    status: 'skipped',
    result: 'Skipped - No longer in your contacts',
    name: 'No longer in your contacts',
  });
  const session = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
  expect(session.calls).toEqual([]);
  // A rep runs one session at a time: this one ends before the next test starts another.
  expect((await rep.post(`/rest/1/dialsession/${id}/end`)).status).toBe(200);
  stream.close();
  const sent = (await receiver.waitFor(2)).map((r) => ({ path: r.path, body: JSON.parse(r.body) }));
  expect(sent.filter((r) => r.path === '/api_callbegin')).toEqual([]);
  // The contact was displayed while it was the rep's; after the move nothing names it.
  expect(sent.filter((r) => r.path !== '/api_contact_displayed' && String(r.body.contact?.user_id ?? '') === ids[0])).toEqual([]);
});

it('neither writes into nor tells of a contact moved away during its call', async () => {
  const { id, ids, stream } = await launch([contact(1)]);
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor(stateIs(0, 'Connected'));
  await transferAway(ids[0]!);
  const owner = api(team.outsider);
  expect(
    (await owner.put(`/rest/1/contacts/${ids[0]}`, { notes: 'Written by the new owner', city: 'Springfield', address1: '1 New Street' }))
      .status,
  ).toBe(200);

  const note = await rep.post(`/rest/1/dialsession/${id}/note`, { note: 'Rep note after the move' });
  expect([note.status, note.body.debug_codes?.[0]?.code]).toEqual([409, 40901]);
  const live = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live;
  expect(live.contact).toBeNull();
  const interested = live.dispositions.find((d: { label: string }) => d.label === 'Interested').disposition_id;
  expect((await rep.post(`/rest/1/dialsession/${id}/disposition`, { disposition_id: interested })).status).toBe(200);
  await stream.waitFor(complete);
  stream.close();

  const record = (await owner.get(`/rest/1/contacts/${ids[0]}`)).body.contacts.contacts[0];
  expect(record).toMatchObject({ call_result: null, total_calls: '0' });
  expect(record.notes.notes).not.toContain('Rep note');
  const call = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions.calls[0];
  expect(call).toMatchObject({ disposition: 'Interested', connected: '1' });

  const done = (await receiver.waitFor(3)).find((r) => r.path === '/api_calldone')!;
  expect(done.body).not.toMatch(/new owner|Springfield|New Street/);
  expect(JSON.parse(done.body)).toMatchObject({
    status: 'Interested',
    custom_fields: false,
    owner: null,
    contact: {
      user_id: Number(ids[0]),
      first_name: '',
      last_name: '',
      phones: [],
      addresses: [],
      notes: '',
      phone: expect.stringMatching(/1$/),
    },
  });
});

it('passes over a queued contact moved away before it comes up, and tells nothing of it', async () => {
  const { id, ids, stream } = await launch([contact(8), contact(1)]);
  await transferAway(ids[1]!);
  await rep.post(`/rest/1/dialsession/${id}/start`);
  await stream.waitFor(complete);
  stream.close();
  const session = (await rep.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
  expect(session.calls.map((c: { user_id: string }) => c.user_id)).toEqual([ids[0]]);
  const sent = await receiver.waitFor(3);
  expect(sent.map((r) => r.path)).toEqual(['/api_contact_displayed', '/api_callbegin', '/api_calldone']);
  const named = sent.map((r) => JSON.parse(r.body)).map((b) => String(b.contact_user_id ?? b.contact?.user_id ?? ''));
  expect(named.filter((n) => n === ids[1])).toEqual([]);
});
