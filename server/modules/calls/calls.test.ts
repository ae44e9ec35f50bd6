import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { openStream } from '../../test/sse.js';

/*
 * GET /rest/1/calls?contact_id= (extension): the contact page's call log. Calls are made for real, in power sessions
 * through the simulated carrier (a number ending in 8 is busy at once), one contact called in several sessions.
 */
let server: TestServer;
let team: Team;
let as: (member: Member) => Caller;
let contactId: string;
/** The calls of the contact, in the order they were made. */
const callIds: string[] = [];
const sessionIds: string[] = [];

let round = 0;
async function callOnce(api: Caller, member: Member, contact: string) {
  // Each body differs: the same body again within a minute answers the session it made.
  const made = await api.post('/rest/1/dialsession', { contacts: [{ contact_user_id: contact }], custom_data: { round: ++round } });
  expect(made.status, made.text).toBe(201);
  const id = made.body.dialsessions.dialsession_id as string;
  const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
    authorization: `Bearer ${server.tokenOf(member)}`,
  });
  const started = await api.post(`/rest/1/dialsession/${id}/start`);
  expect(started.status, started.text).toBe(200);
  await stream.waitFor((e) => e.event === 'state' && e.data.call_state === 'Session complete');
  stream.close();
  const session = (await api.get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
  return { sessionId: id, callId: session.calls[0].call_id as string };
}

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api: as } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
  const rep = as(team.rep);
  const created = await rep.post('/rest/1/contacts', {
    first_name: 'Logan',
    last_name: 'Called',
    phone: '3124770108',
    allow_duplicates: 1,
  });
  contactId = String(created.body.contacts.contacts.contact_user_id);
  for (let i = 0; i < 3; i++) {
    const { sessionId, callId } = await callOnce(rep, team.rep, contactId);
    sessionIds.push(sessionId);
    callIds.push(callId);
  }
}, 60_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});

const list = (api: Caller, query: string) => api.get(`/rest/1/calls?${query}`);

it("lists a contact's calls newest first, as the call read answers them, with their session and who called", async () => {
  const reply = await list(as(team.rep), `contact_id=${contactId}`);
  expect(reply.status, reply.text).toBe(200);
  const { calls, ...paging } = reply.body.calls;
  expect(paging).toEqual({ page: 1, page_size: 25, total_results: 3, total_pages: 1 });
  expect(calls.map((c: { call_id: string }) => c.call_id)).toEqual([...callIds].reverse());
  const single = (await as(team.rep).get(`/rest/1/dialsession/call/${callIds[2]}`)).body.call.call;
  expect(calls[0]).toEqual({ ...single, session_id: sessionIds[2], member_id: String(team.rep.id), member_name: 'Rick Test' });
  expect(calls[0]).toMatchObject({
    user_id: contactId,
    contact_name: 'Logan Called',
    disposition: 'Busy',
    connected: '0',
    phone: '3124770108',
  });
});

it('pages', async () => {
  const first = (await list(as(team.rep), `contact_id=${contactId}&page_size=2`)).body.calls;
  const second = (await list(as(team.rep), `contact_id=${contactId}&page_size=2&page=2`)).body.calls;
  expect([first.total_results, first.total_pages, second.page]).toEqual([3, 2, 2]);
  expect([...first.calls, ...second.calls].map((c: { call_id: string }) => c.call_id)).toEqual([...callIds].reverse());
  expect((await list(as(team.rep), `contact_id=${contactId}&page=3&page_size=2`)).body.calls.calls).toEqual([]);
});

it('shows the manager and the vendor the calls of their team', async () => {
  for (const who of [team.manager, team.vendor]) {
    expect((await list(as(who), `contact_id=${contactId}`)).body.calls.total_results).toBe(3);
  }
});

it.each([
  ["another team's rep", 'outsider'],
  ['a teammate (the contact is not theirs)', 'teammate'],
  ["another organisation's vendor", 'otherVendor'],
] as const)('answers 404 to %s, as the contact would', async (_, who) => {
  const reply = await list(as(team[who]), `contact_id=${contactId}`);
  expect(reply.status).toBe(404);
  expect(reply.body.debug_codes[0]).toMatchObject({ code: 40401, reason: `There is no contact ${contactId}.` });
  expect((await as(team[who]).get(`/rest/1/contacts/${contactId}`)).status).toBe(404);
});

it('answers 404 for a contact that does not exist, and 400 with a bad filter or page', async () => {
  expect((await list(as(team.rep), 'contact_id=999999')).status).toBe(404);
  for (const query of [
    'contact_id=abc',
    `contact_id=${contactId}&page_size=101`,
    `contact_id=${contactId}&page=0`,
    'date_start=23-11-2026',
    'connected=maybe',
    'date_start=2026-11-24&date_end=2026-11-23',
    `member_id=${team.outsider.id}`,
    `member_id=${team.otherVendor.id}`,
  ]) {
    const reply = await list(as(team.manager), query);
    expect(reply.status, query).toBe(400);
  }
});

describe('filters (the Calls screen)', () => {
  const ids = async (who: Member, query: string) => {
    const reply = await list(as(who), query);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.calls.calls.map((c: { call_id: string }) => c.call_id);
  };

  it('lists every call the caller may see without a contact, and narrows by member, session and day', async () => {
    expect(await ids(team.rep, '')).toEqual(expect.arrayContaining(callIds));
    expect(await ids(team.teammate, '')).toEqual([]);
    expect(await ids(team.manager, `member_id=${team.rep.id}`)).toEqual(expect.arrayContaining(callIds));
    expect(await ids(team.manager, `member_id=${team.teammate.id}`)).toEqual([]);
    expect(await ids(team.rep, `session_id=${sessionIds[1]}`)).toEqual([callIds[1]]);
    expect(await ids(team.rep, 'date_start=2026-11-23&date_end=2026-11-23')).toEqual(expect.arrayContaining(callIds));
    expect(await ids(team.rep, 'date_start=2026-11-24')).toEqual([]);
  });

  it('narrows by disposition, connected and recorded', async () => {
    expect(await ids(team.rep, `contact_id=${contactId}&disposition=Busy`)).toEqual([...callIds].reverse());
    expect(await ids(team.rep, `contact_id=${contactId}&disposition=Interested`)).toEqual([]);
    expect(await ids(team.rep, `contact_id=${contactId}&connected=0`)).toEqual([...callIds].reverse());
    expect(await ids(team.rep, `contact_id=${contactId}&connected=1`)).toEqual([]);
    expect(await ids(team.rep, `contact_id=${contactId}&recorded=1`)).toEqual([]);
    expect(await ids(team.rep, `contact_id=${contactId}&recorded=0`)).toEqual([...callIds].reverse());
  });
});

it('lists, once a contact has moved to another team, only the calls its new owner may open', async () => {
  const rep = as(team.rep);
  const made = await rep.post('/rest/1/contacts', { first_name: 'Moved', last_name: 'Away', phone: '3124770118', allow_duplicates: 1 });
  const moved = String(made.body.contacts.contacts.contact_user_id);
  await callOnce(rep, team.rep, moved);
  expect((await as(team.vendor).put(`/rest/1/contacts/${moved}`, { transfer_to_user_id: team.outsider.id })).status).toBe(200);
  const theirs = await list(as(team.outsider), `contact_id=${moved}`);
  expect([theirs.status, theirs.body.calls.total_results]).toEqual([200, 0]);
  expect((await list(rep, `contact_id=${moved}`)).status).toBe(404);
  expect((await list(as(team.vendor), `contact_id=${moved}`)).body.calls.total_results).toBe(1);
});

describe('GET /rest/1/calls/{call_id} (the call viewer)', () => {
  const read = (who: Member, id: string, query = '') => as(who).get(`/rest/1/calls/${id}${query}`);

  it('answers the call as the list shows it, with its session and who made it', async () => {
    const reply = await read(team.rep, callIds[1]!);
    expect(reply.status, reply.text).toBe(200);
    const { call, ...paging } = reply.body.call;
    expect(paging).toEqual({ page: 1, page_size: 1, total_results: 1, total_pages: 1 });
    const listed = (await list(as(team.rep), `session_id=${sessionIds[1]}`)).body.calls.calls[0];
    expect(call).toEqual(listed);
    expect(call).toMatchObject({ call_id: callIds[1], session_id: sessionIds[1], member_id: String(team.rep.id), user_id: contactId });
    expect(call).not.toHaveProperty('recording_url');
  });

  it('adds recording_url with include_recording=1 (null: this call was not recorded)', async () => {
    const { call } = (await read(team.rep, callIds[0]!, '?include_recording=1&include_transcript=1')).body.call;
    expect(call).toMatchObject({ recording_url: null, recording_status: 'none', transcript: null });
  });

  it("shows the manager and the vendor their team's call", async () => {
    for (const who of [team.manager, team.vendor]) expect((await read(who, callIds[0]!)).status).toBe(200);
  });

  it.each([
    ["another team's rep", 'outsider'],
    ['a teammate', 'teammate'],
    ["another organisation's vendor", 'otherVendor'],
  ] as const)('answers 404 to %s', async (_, who) => {
    const reply = await read(team[who], callIds[0]!);
    expect(reply.status).toBe(404);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: 40401, reason: `There is no call ${callIds[0]}.` });
  });

  it('answers 404 for a call that does not exist and 400 for an id that is not one', async () => {
    expect((await read(team.rep, '999999')).status).toBe(404);
    const bad = await read(team.rep, 'abc');
    expect(bad.status).toBe(400);
    expect(bad.body.debug_codes[0]).toMatchObject({ field: 'call_id' });
    expect((await read(team.rep, `${callIds[0]}?include_recording=maybe`)).status).toBe(400);
  });
});
