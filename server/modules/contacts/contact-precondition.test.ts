import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* Extensions against silent overwrites: ETag and If-Match on a contact, and the matches a new contact would hit. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
});
afterAll(() => server?.close());

const create = async (body: object) =>
  (await rep.post('/rest/1/contacts', { allow_duplicates: 1, ...body })).body.contacts.contacts.contact_user_id as string;
const put = (id: string, body: object, ifMatch?: string) =>
  rep.raw(`/rest/1/contacts/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    body: JSON.stringify(body),
  });

describe('If-Match on PUT /rest/1/contacts/{id}', () => {
  it('applies an update made against the current version, and answers the new ETag', async () => {
    const id = await create({ first_name: 'Pat' });
    const etag = (await rep.get(`/rest/1/contacts/${id}`)).headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${id}\\.\\d+"$`));
    const reply = await put(id, { first_name: 'Patricia' }, etag);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).not.toBe(etag);
    expect(reply.headers.get('etag')).toBe((await rep.get(`/rest/1/contacts/${id}`)).headers.get('etag'));
  });

  it('refuses an update made against a version that is no longer current with 409, changing nothing', async () => {
    const id = await create({ first_name: 'Sam', last_name: 'One' });
    const stale = (await rep.get(`/rest/1/contacts/${id}`)).headers.get('etag')!;
    expect((await put(id, { last_name: 'Two' }, stale)).status).toBe(200);
    const reply = await put(id, { first_name: 'Overwritten' }, stale);
    expect(reply.status).toBe(409);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code: 40902, field: 'If-Match' })]);
    expect((await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0]).toMatchObject({ first_name: 'Sam', last_name: 'Two' });
  });

  it("keeps the contract's behaviour without a precondition, and with If-Match: *", async () => {
    const id = await create({ first_name: 'Lee' });
    expect((await put(id, { first_name: 'Lea' })).status).toBe(200);
    expect((await put(id, { first_name: 'Leah' }, '*')).status).toBe(200);
    expect((await put(id, { first_name: 'Never' }, `"${id}.999", "0.0"`)).status).toBe(409);
  });
});

describe('GET /rest/1/contacts/matches', () => {
  it("answers the caller's contacts that share the e-mail (any case) or phone, and nobody else's", async () => {
    const mine = await create({ first_name: 'Match', email: 'Match.Me@example.com', phone: '3125550177' });
    await api(team.teammate).post('/rest/1/contacts', { first_name: 'Theirs', email: 'match.me@example.com' });
    const byEmail = await rep.get('/rest/1/contacts/matches?email=MATCH.me%40example.com');
    expect(byEmail.body.contacts.contacts.map((c: { contact_user_id: string }) => c.contact_user_id)).toEqual([mine]);
    const byPhone = await rep.get('/rest/1/contacts/matches?phone=(312)%20555-0177');
    expect(byPhone.body.contacts).toMatchObject({ total_results: 1, contacts: [{ contact_user_id: mine, first_name: 'Match' }] });
    expect((await rep.get('/rest/1/contacts/matches?email=nobody%40example.com')).body.contacts.contacts).toEqual([]);
    expect((await rep.get('/rest/1/contacts/matches')).body.contacts.contacts).toEqual([]);
    expect((await api(team.manager).get('/rest/1/contacts/matches?email=match.me%40example.com')).body.contacts.total_results).toBe(2);
  });
});
