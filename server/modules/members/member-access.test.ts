import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { resetClock, setClock } from '../../lib/clock.js';
import { caller, type Caller, type Reply, serverWithTeam, TEST_PASSWORD, type Team, type TestServer } from '../../test/harness.js';
import { openStream, type SseEvent } from '../../test/sse.js';

/*
 * Issue 19, finding 1: access can be taken away. A member who ran dial sessions can be removed; its history stays,
 * attributed to it; its tokens, web sessions and sign-in keys end at once. A member (and the vendor for anyone) can
 * change a password, which ends the member's other web sessions; a personal token can be revoked and re-issued.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let vendor: Caller;

beforeAll(async () => {
  setClock(new Date('2026-11-23T18:00:00Z'));
  ({ server, team, api } = await serverWithTeam({ CARRIER_TIME_SCALE: '0.02' }));
  vendor = api(team.vendor);
});
afterAll(async () => {
  resetClock();
  await server?.close();
});

let n = 0;
async function newRep(): Promise<Member> {
  const reply = await vendor.post('/rest/1/members', {
    username: `leaver${process.pid}x${++n}`,
    password: TEST_PASSWORD,
    first_name: 'Lee',
    last_name: `Leaver${n}`,
    email: 'lee@example.com',
    billing_item_id: 1,
    billing_group_id: 'g',
    subgroup_id: 's',
    role: 'member',
    manager_id: team.manager.id,
  });
  expect(reply.status, reply.text).toBe(201);
  return server.ctx.store.db
    .selectFrom('members')
    .selectAll()
    .where('id', '=', Number(reply.body.members.members.user_id))
    .executeTakeFirstOrThrow();
}

const CSRF = { 'x-ringbook-request': '1' };
async function signIn(username: string, password = TEST_PASSWORD): Promise<Reply> {
  return server.as().raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CSRF },
    body: JSON.stringify({ username, password }),
  });
}
async function browserOf(member: Member, password = TEST_PASSWORD): Promise<{ cookie: string; as: Caller }> {
  const reply = await signIn(member.username, password);
  expect(reply.status, reply.text).toBe(200);
  const cookie = /rb_session=([^;]+)/.exec(reply.headers.getSetCookie().join('\n'))![1]!;
  return { cookie, as: caller(server.url, { cookie: `rb_session=${cookie}`, ...CSRF }) };
}
const stateIs = (callState: string) => (e: SseEvent) => e.event === 'state' && e.data.call_state === callState;

describe('removing a member', () => {
  it('works for a rep with a running session and a call up: the session ends, history stays theirs, every way in ends', async () => {
    const leaver = await newRep();
    const rep = api(leaver);
    const browser = await browserOf(leaver);
    const created = await rep.post('/rest/1/dialsession', {
      contacts: [
        { first_name: 'Kept', phone: '3124750001', allow_duplicates: 1 },
        { first_name: 'Next', phone: '3124750002' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.dialsessions.dialsession_id;
    const ssoKey = new URL(created.body.dialsessions.redirect_url).searchParams.get('key');
    const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events?after=0`, {
      authorization: `Bearer ${server.tokenOf(leaver)}`,
    });
    await rep.post(`/rest/1/dialsession/${id}/start`);
    await stream.waitFor(stateIs('Connected'));
    const contactId = (await rep.get(`/rest/1/dialsession/${id}/live`)).body.live.contact.contact_user_id;
    await rep.post(`/rest/1/dialsession/${id}/note`, { note: 'Said by the leaver' });

    expect((await vendor.delete(`/rest/1/members/${leaver.id}?move_contacts_to=${team.teammate.id}`)).status).toBe(204);

    // Every way in has ended: the token, the web session, the password, the one-time dialer link.
    expect((await rep.get('/rest/1/members/me')).status).toBe(401);
    expect((await browser.as.get('/rest/1/members/me')).status).toBe(401);
    expect((await signIn(leaver.username)).status).toBe(401);
    const sso = await fetch(`${server.url}/sso/dialer?key=${ssoKey}`, { redirect: 'manual' });
    expect(sso.headers.get('location')).toMatch(/link=expired/);
    await stream.waitFor(stateIs('Session complete'));

    // History stays, attributed to the member: its session and call, its note on the contact that went on.
    const session = (await api(team.manager).get(`/rest/1/dialsession/${id}`)).body.dialsessions.dialsessions;
    expect(session).toMatchObject({ status: 'ended', member_id: String(leaver.id), call_count: 1 });
    expect(session.calls[0]).toMatchObject({ hangup_status: 'ended with the session', connected: '1' });
    const contact = (await api(team.teammate).get(`/rest/1/contacts/${contactId}`)).body.contacts.contacts[0];
    expect(contact.owner_id).toBe(String(team.teammate.id));
    expect(contact.notes.notes).toMatch(new RegExp(`Lee Leaver${n}: Said by the leaver`));
    const today = (await vendor.get('/rest/1/clock')).body.clock.today;
    const usage = (await vendor.get(`/rest/1/dialsession/usage?date_start=${today}&date_end=${today}`)).body.usage;
    expect(usage[String(leaver.id)]).toMatchObject({ sessions: 1, calls: 1 });

    // Gone from the team: not listed, not found, not a possible owner; its username is free again.
    expect((await vendor.get(`/rest/1/members/${leaver.id}`)).status).toBe(404);
    const listed = (await vendor.get('/rest/1/members?entire_team=1')).body.members.members.map((m: { user_id: string }) => m.user_id);
    expect(listed).not.toContain(String(leaver.id));
    expect((await vendor.put(`/rest/1/contacts/${contactId}`, { transfer_to_user_id: leaver.id })).status).toBe(400);
    const again = await vendor.post('/rest/1/members', {
      username: leaver.username,
      password: TEST_PASSWORD,
      first_name: 'New',
      email: 'new@example.com',
      billing_item_id: 1,
      billing_group_id: 'g',
      subgroup_id: 's',
    });
    expect(again.status, again.text).toBe(201);
    stream.close();
  });

  it('ends the streams the member had open, on the next check', async () => {
    const leaver = await newRep();
    const created = await api(leaver).post('/rest/1/dialsession', {
      contacts: [{ first_name: 'Watched', phone: '3124750003' }],
      preview_mode: 1,
    });
    const id = created.body.dialsessions.dialsession_id;
    const response = await fetch(`${server.url}/rest/1/dialsession/${id}/events`, {
      headers: { authorization: `Bearer ${server.tokenOf(leaver)}` },
    });
    expect(response.status).toBe(200);
    expect((await vendor.delete(`/rest/1/members/${leaver.id}`)).status).toBe(204);
    await response.text();
  });
});

describe('PUT /rest/1/members/{id}/password', () => {
  it("changes one's own password with the current one, ending one's other web sessions but not this one", async () => {
    const member = await newRep();
    const here = await browserOf(member);
    const elsewhere = await browserOf(member);
    const wrong = await here.as.put(`/rest/1/members/${member.id}/password`, {
      current_password: 'not it at all',
      password: 'a new long password',
    });
    expect([wrong.status, wrong.body.debug_codes[0].field]).toEqual([400, 'current_password']);
    const missing = await here.as.put(`/rest/1/members/${member.id}/password`, { password: 'a new long password' });
    expect([missing.status, missing.body.debug_codes[0].field]).toEqual([400, 'current_password']);
    const short = await here.as.put(`/rest/1/members/${member.id}/password`, { current_password: TEST_PASSWORD, password: 'short' });
    expect([short.status, short.body.debug_codes[0].field]).toEqual([400, 'password']);

    const changed = await here.as.put(`/rest/1/members/${member.id}/password`, {
      current_password: TEST_PASSWORD,
      password: 'a new long password',
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await here.as.get('/rest/1/members/me')).status).toBe(200);
    expect((await elsewhere.as.get('/rest/1/members/me')).status).toBe(401);
    expect((await signIn(member.username)).status).toBe(401);
    expect((await signIn(member.username, 'a new long password')).status).toBe(200);
  });

  it("lets the vendor set anyone's password without the current one, ending all their web sessions; nobody else", async () => {
    const member = await newRep();
    const theirs = await browserOf(member);
    expect((await api(team.manager).put(`/rest/1/members/${member.id}/password`, { password: 'managers may not' })).status).toBe(403);
    expect((await api(team.teammate).put(`/rest/1/members/${member.id}/password`, { password: 'teammates may not' })).status).toBe(404);
    expect((await vendor.put(`/rest/1/members/${member.id}/password`, { password: 'set by the vendor' })).status).toBe(204);
    expect((await theirs.as.get('/rest/1/members/me')).status).toBe(401);
    expect((await signIn(member.username, 'set by the vendor')).status).toBe(200);
    expect((await vendor.put(`/rest/1/members/${team.otherVendor.id}/password`, { password: 'another organisation' })).status).toBe(404);
  });
});

describe('POST /rest/1/members/{id}/token', () => {
  it('revokes the personal token at once and issues the next one, which the member record then shows', async () => {
    const member = await newRep();
    const old = server.tokenOf(member);
    const rotated = await api(member).post(`/rest/1/members/${member.id}/token`);
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.members.members.oauth.bearer_token as string;
    expect(fresh).not.toBe(old);
    expect((await server.as(old).get('/rest/1/members/me')).status).toBe(401);
    expect((await server.as(fresh).get('/rest/1/members/me')).body.members.members.oauth.bearer_token).toBe(fresh);
    const byVendor = await vendor.post(`/rest/1/members/${member.id}/token`);
    expect((await server.as(fresh).get('/rest/1/members/me')).status).toBe(401);
    expect((await server.as(byVendor.body.members.members.oauth.bearer_token).get('/rest/1/members/me')).status).toBe(200);
    expect((await api(team.manager).post(`/rest/1/members/${member.id}/token`)).status).toBe(403);
  });

  it('shows no token to the web app, which may still rotate its own', async () => {
    const member = await newRep();
    const { as } = await browserOf(member);
    const rotated = await as.post(`/rest/1/members/${member.id}/token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.members.members).not.toHaveProperty('oauth');
  });
});
