import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../db/schema.js';
import { Codes } from '../lib/http-errors.js';
import { addSeconds, now } from '../lib/time.js';
import { caller, serverWithTeam, TEST_PASSWORD, type Reply, type Team, type TestServer } from '../test/harness.js';
import { sha256 } from './tokens.js';

let server: TestServer;
let team: Team;

beforeAll(async () => ({ server, team } = await serverWithTeam()));
afterAll(() => server?.close());

const CSRF = { 'x-ringbook-request': '1' };

const signIn = (username: string, password = TEST_PASSWORD, headers: Record<string, string> = CSRF) =>
  server.as().raw('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
  });

const cookieOf = (reply: Reply, name = 'rb_session') =>
  reply.headers
    .getSetCookie()
    .map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1])
    .find(Boolean) ?? '';

async function sessionFor(member: Member) {
  const reply = await signIn(member.username);
  expect(reply.status, reply.text).toBe(200);
  return cookieOf(reply);
}

/** The web app: the session cookie and the CSRF header, never a bearer token. */
const browser = (cookie: string, headers: Record<string, string> = CSRF) =>
  caller(server.url, { cookie: `rb_session=${cookie}`, ...headers });

const expectError = (reply: Reply, status: number, code: number) => {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({
    http_status: status,
    status: 'error',
    debug_codes: [expect.objectContaining({ code, reason: expect.any(String) })],
  });
};

async function insertToken(member: Member, token: string, values: { expires_at?: string; revoked_at?: string }) {
  await server.ctx.store.write((tx) =>
    tx
      .insertInto('access_tokens')
      .values({ member_id: member.id, token_hash: sha256(token), kind: 'oauth', created_at: now(), ...values })
      .execute(),
  );
}

describe('bearer tokens', () => {
  it.each([
    ['no Authorization header', {}, Codes.missingAuthorization],
    ['a Basic Authorization header', { authorization: 'Basic x' }, Codes.malformedAuthorization],
    ['an empty Bearer', { authorization: 'Bearer ' }, Codes.malformedAuthorization],
    ['an unknown token', { authorization: 'Bearer rb_nobody' }, Codes.unknownToken],
  ])('answers 401 to %s in the error envelope', async (_label, headers, code) => {
    expectError(await caller(server.url, headers).get('/rest/1/members/me'), 401, code);
  });

  it('answers 401 40109 to an expired token and 40103 to a revoked one; a current one works', async () => {
    const past = addSeconds(now(), -60);
    await insertToken(team.rep, 'expired-token-for-test', { expires_at: past });
    await insertToken(team.rep, 'revoked-token-for-test', { revoked_at: past });
    await insertToken(team.rep, 'current-token-for-test', { expires_at: addSeconds(now(), 3600) });
    expectError(await server.as('expired-token-for-test').get('/rest/1/members/me'), 401, Codes.expiredToken);
    expectError(await server.as('revoked-token-for-test').get('/rest/1/members/me'), 401, Codes.unknownToken);
    expect((await server.as('current-token-for-test').get('/rest/1/members/me')).body.members.members.user_id).toBe(String(team.rep.id));
  });
});

describe('the rest of the HTTP surface', () => {
  it('answers GET /rest/1/tranquility without credentials: a list of one with paging fields', async () => {
    const reply = await server.as().get('/rest/1/tranquility');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ http_status: 200, status: 'success' });
    expect(reply.body.tranquility).toEqual({
      tranquility: [{ meaning: expect.any(String) }],
      page: 1,
      page_size: 1,
      total_results: 1,
      total_pages: 1,
    });
  });

  it('marks API answers, errors included, as not to be stored, and sends no ETag', async () => {
    const api = server.as(server.tokenOf(team.rep));
    for (const reply of [
      await api.get('/rest/1/members/me'),
      await api.get('/rest/1/contacts/999999'),
      await server.as().get('/rest/1/members'),
    ]) {
      expect(reply.headers.get('cache-control'), reply.text).toBe('no-store');
      expect(reply.headers.get('etag')).toBeNull();
    }
    expect((await signIn(team.rep.username)).headers.get('cache-control')).toBe('no-store');
  });

  it.each(['/rest/1/nowhere', '/rest/2/members', '/auth/nowhere'])(
    'answers an unknown route %s with 404 in the error envelope',
    async (path) => {
      expectError(await server.as(server.tokenOf(team.vendor)).get(path), 404, Codes.routeNotFound);
    },
  );

  it('answers a malformed JSON body with 400 40001', async () => {
    const reply = await server.as(server.tokenOf(team.vendor)).raw('/rest/1/folders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expectError(reply, 400, Codes.malformedBody);
  });
});

describe('POST /auth/login', () => {
  it('signs in with an HttpOnly, SameSite=Strict cookie and answers the member without any token', async () => {
    const reply = await signIn(team.manager.username);
    expect(reply.status).toBe(200);
    const [session, device] = reply.headers.getSetCookie();
    expect(session).toMatch(/^rb_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(device).toMatch(
      /^rb_device=\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/auth; HttpOnly; SameSite=Strict; Max-Age=31536000$/,
    );
    expect(reply.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(reply.body.member).toMatchObject({ user_id: String(team.manager.id), username: team.manager.username });
    expect(reply.body.member).not.toHaveProperty('oauth');
    expect(reply.text).not.toContain(server.tokenOf(team.manager));
  });

  it('refuses a sign-in without the X-Ringbook-Request header with 403 40303', async () => {
    const reply = await signIn(team.manager.username, TEST_PASSWORD, {});
    expectError(reply, 403, Codes.csrfHeaderMissing);
    expect(reply.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['a wrong password', () => team.outsider.username, 'wrong password!'],
    ['an unknown username', () => 'nobody-at-all', TEST_PASSWORD],
  ])('refuses %s with 401 40104 and no cookie', async (_label, username, password) => {
    const reply = await signIn(username(), password);
    expectError(reply, 401, Codes.badCredentials);
    expect(reply.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a body without username with 400 naming it', async () => {
    const reply = await server
      .as()
      .raw('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', ...CSRF }, body: '{}' });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: { field: string }) => d.field)).toEqual(['username', 'password']);
  });

  it('gives a new cookie at each sign-in and ends the session the browser already had', async () => {
    const first = await sessionFor(team.rep);
    const again = await signIn(team.rep.username, TEST_PASSWORD, { ...CSRF, cookie: `rb_session=${first}` });
    const second = cookieOf(again);
    expect(second).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(second).not.toBe(first);
    expectError(await browser(first).get('/auth/session'), 401, Codes.sessionEnded);
    expect((await browser(second).get('/auth/session')).body.member.user_id).toBe(String(team.rep.id));
  });

  it('throttles a username after 5 failures: 429 with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await signIn(team.teammate.username, 'wrong password!')).status).toBe(401);
    const reply = await signIn(team.teammate.username);
    expectError(reply, 429, Codes.rateLimited);
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(reply.headers.get('set-cookie')).toBeNull();
  });
});

describe('the session cookie on /rest/1', () => {
  it('works for GET /members/me and /members, and no bearer token reaches the browser', async () => {
    const cookie = await sessionFor(team.vendor);
    const me = await browser(cookie).get('/rest/1/members/me');
    expect(me.status).toBe(200);
    expect(me.body.members.members.user_id).toBe(String(team.vendor.id));
    const all = await browser(cookie).get('/rest/1/members?entire_team=1');
    expect(all.body.members.members.length).toBeGreaterThan(1);
    for (const reply of [me, all]) {
      expect(reply.text).not.toContain('bearer_token');
      expect(reply.text).not.toContain(server.tokenOf(team.vendor));
    }
  });

  it('refuses a change without X-Ringbook-Request (403 40303, nothing changed) and accepts it with the header', async () => {
    const cookie = await sessionFor(team.manager);
    const path = `/rest/1/members/${team.manager.id}`;
    expectError(await browser(cookie, {}).put(path, { first_name: 'Forged' }), 403, Codes.csrfHeaderMissing);
    expect((await browser(cookie).get(path)).body.members.members[0].first_name).toBe('Mona');
    const reply = await browser(cookie).put(path, { first_name: 'Monique' });
    expect(reply.status).toBe(200);
    expect(reply.body.members.members.first_name).toBe('Monique');
    expect(reply.text).not.toContain('bearer_token');
  });

  it('ends the session at logout: 204, the cookie cleared, and 401 40105 afterwards', async () => {
    const cookie = await sessionFor(team.outsider);
    const reply = await browser(cookie).raw('/auth/logout', { method: 'POST' });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('set-cookie')).toMatch(/^rb_session=; .*Max-Age=0/);
    expectError(await browser(cookie).get('/rest/1/members/me'), 401, Codes.sessionEnded);
  });

  it.each([
    ['idle for two hours', { last_seen_at: addSeconds(now(), -2 * 3600) }],
    ['past its absolute end', { expires_at: addSeconds(now(), -1) }],
  ])('refuses a session %s with 401', async (_label, values) => {
    const cookie = await sessionFor(team.outsider);
    expect((await browser(cookie).get('/rest/1/members/me')).status).toBe(200);
    await server.ctx.store.write((tx) => tx.updateTable('sessions').set(values).where('id_hash', '=', sha256(cookie)).execute());
    expectError(await browser(cookie).get('/rest/1/members/me'), 401, Codes.sessionEnded);
    expectError(await browser(cookie).get('/auth/session'), 401, Codes.sessionEnded);
  });
});
