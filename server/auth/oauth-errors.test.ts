import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentDate, resetClock, setClock } from '../lib/clock.js';
import { sha256 } from './tokens.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../test/harness.js';
import { authorizeQuery, browserOf, codeFor, type Integration, REDIRECT, redeem, refreshWith, register, tokenForm } from '../test/oauth.js';

/* Every refusal of the OAuth endpoints, in RFC 6749's words, and the consent screen's defences. */
let server: TestServer;
let team: Team;
let api: (m: Team['vendor']) => Caller;
let client: Integration;
let other: Integration;
let repBrowser: Caller & { cookie: string };

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  client = await register(api(team.vendor));
  other = await register(api(team.otherVendor), [REDIRECT], 'Elsewhere');
  repBrowser = await browserOf(server, team.rep);
});
afterAll(() => server?.close());
afterEach(() => resetClock());

const authorize = (params: URLSearchParams) => server.as().raw(`/oauth/authorize?${params}`, { redirect: 'manual' });

describe('GET /oauth/authorize', () => {
  it.each([
    ['an unknown client_id', { client_id: 'rbi_nobody' }],
    ['a redirect_uri not registered', { redirect_uri: 'https://crm.example.com/oauth/callback/' }],
    ['a redirect_uri of another host', { redirect_uri: 'https://evil.example.net/cb' }],
    ['no redirect_uri', { redirect_uri: '' }],
  ])('shows an error page for %s, never redirecting', async (_label, change: Record<string, string>) => {
    const params = authorizeQuery(client, change);
    if (change.redirect_uri === '') params.delete('redirect_uri');
    const reply = await authorize(params);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('location')).toBeNull();
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.text).toContain('cannot be connected');
  });

  it.each([
    ['no response_type', { response_type: '' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a code_challenge_method without a challenge', { code_challenge_method: 'S256' }, 'invalid_request'],
  ])('sends %s back to the integration with its error and the state', async (_label, change: Record<string, string>, error) => {
    const params = authorizeQuery(client, change);
    if (change.response_type === '') params.delete('response_type');
    const location = new URL((await authorize(params)).headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual([error, 'xyz']);
  });

  it('answers /oauth/index as /oauth/authorize', async () => {
    const reply = await server.as().raw(`/oauth/index?${authorizeQuery(client)}`, { redirect: 'manual' });
    expect(reply.headers.get('location')).toMatch(/^\/authorize\?/);
  });
});

describe('the consent screen', () => {
  it("refuses another organisation's integration: back with unauthorized_client", async () => {
    const info = await repBrowser.get(`/oauth/consent?${authorizeQuery(other)}`);
    expect(new URL(info.body.consent.redirect_to).searchParams.get('error')).toBe('unauthorized_client');
  });

  it('cannot be framed, nor can the sign-in page', async () => {
    for (const path of ['/authorize', '/sign-in', `/oauth/authorize?${authorizeQuery(client)}`]) {
      const reply = await server.as().raw(path, { redirect: 'manual', headers: { accept: 'text/html' } });
      expect(reply.headers.get('x-frame-options')).toBe('DENY');
      expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('refuses a decision without the CSRF token, with the token of another session, or with a bearer token', async () => {
    const body = { ...Object.fromEntries(authorizeQuery(client)), decision: 'allow' };
    expect((await repBrowser.post('/oauth/consent', { ...body, csrf_token: 'guess' })).status).toBe(403);
    const teammate = await browserOf(server, team.teammate);
    const theirs = (await teammate.get(`/oauth/consent?${authorizeQuery(client)}`)).body.consent.csrf_token;
    expect((await repBrowser.post('/oauth/consent', { ...body, csrf_token: theirs })).status).toBe(403);
    const mine = (await repBrowser.get(`/oauth/consent?${authorizeQuery(client)}`)).body.consent.csrf_token;
    const bearer = api(team.rep);
    expect((await bearer.post('/oauth/consent', { ...body, csrf_token: mine })).status).toBe(403);
    const noHeader = await server.as().raw('/oauth/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: repBrowser.cookie },
      body: JSON.stringify({ ...body, csrf_token: mine }),
    });
    expect(noHeader.status).toBe(403);
    expect((await server.as().get(`/oauth/consent?${authorizeQuery(client)}`)).status).toBe(401);
  });
});

describe('POST /oauth/accesstoken', () => {
  const fields = () => ({ client_id: client.client_id, client_secret: client.client_secret, redirect_uri: REDIRECT });

  it.each([
    ['no grant_type', {}, 400, 'invalid_request'],
    ['grant_type=password', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['no code', { grant_type: 'authorization_code' }, 400, 'invalid_request'],
    ['an unknown code', { grant_type: 'authorization_code', code: 'rbc_nothing' }, 400, 'invalid_grant'],
    ['a wrong client_secret', { grant_type: 'authorization_code', code: 'x', client_secret: 'rbs_wrong' }, 401, 'invalid_client'],
    ['no client_secret', { grant_type: 'authorization_code', code: 'x', client_secret: undefined }, 401, 'invalid_client'],
    ['an unknown client_id', { grant_type: 'authorization_code', code: 'x', client_id: 'rbi_nobody' }, 401, 'invalid_client'],
  ])('refuses %s', async (_label, change, status, error) => {
    const reply = await tokenForm(server, '/oauth/accesstoken', { ...fields(), ...change });
    expect([reply.status, reply.body.error, typeof reply.body.error_description]).toEqual([status, error, 'string']);
    if (status === 401) expect(reply.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('refuses a code redeemed with another redirect_uri, or by another client', async () => {
    const code = await codeFor(repBrowser, client);
    expect((await redeem(server, client, code, { redirect_uri: 'https://crm.example.com/other' })).body.error).toBe('invalid_grant');
    expect((await redeem(server, other, code)).body.error).toBe('invalid_grant');
    expect((await redeem(server, client, code)).status).toBe(200);
  });

  it('refuses a code past its minute (controlled clock)', async () => {
    const code = await codeFor(repBrowser, client);
    setClock(new Date(currentDate().getTime() + 61_000));
    const reply = await redeem(server, client, code);
    expect([reply.status, reply.body.error]).toEqual([400, 'invalid_grant']);
    expect(reply.body.error_description).toMatch(/expired/);
  });

  it('redeems a code within its minute (controlled clock)', async () => {
    const code = await codeFor(repBrowser, client);
    setClock(new Date(currentDate().getTime() + 55_000));
    expect((await redeem(server, client, code)).status).toBe(200);
  });

  it('expires access tokens after a week (controlled clock); the refresh token still works', async () => {
    const tokens = (await redeem(server, client, await codeFor(repBrowser, client))).body;
    setClock(new Date(currentDate().getTime() + 604_801_000));
    const reply = await server.as(tokens.access_token).get('/rest/1/members/me');
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([401, 40109]);
    expect((await refreshWith(server, client, tokens.refresh_token)).status).toBe(200);
  });

  it("refuses another client's refresh token", async () => {
    const tokens = (await redeem(server, client, await codeFor(repBrowser, client))).body;
    expect((await refreshWith(server, other, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await refreshWith(server, client, tokens.refresh_token)).status).toBe(200);
  });

  it('refuses revocation by an unauthenticated client', async () => {
    const reply = await tokenForm(server, '/oauth/revoke', { token: 'x', client_id: client.client_id });
    expect([reply.status, reply.body.error]).toEqual([401, 'invalid_client']);
  });
});

describe('housekeeping', () => {
  it('deletes codes never redeemed a day after they expired, and keeps redeemed ones (a second use must still revoke)', async () => {
    const unused = await codeFor(repBrowser, client);
    const used = await codeFor(repBrowser, client);
    const tokens = (await redeem(server, client, used)).body;
    setClock(new Date(currentDate().getTime() + 86_400_000 + 120_000));
    const taken = await server.ctx.housekeeper.runOnce();
    expect(taken.oauthCodes).toBeGreaterThanOrEqual(1);
    const left = await server.ctx.store.db.selectFrom('oauth_codes').select('code_hash').execute();
    expect(left.map((r) => r.code_hash)).not.toContain(sha256(unused));
    expect(left.map((r) => r.code_hash)).toContain(sha256(used));
    expect((await redeem(server, client, used)).body.error).toBe('invalid_grant');
    expect((await refreshWith(server, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
    // The pass ended the web sessions of a day ago too: the browser signs in again for what follows.
    resetClock();
    repBrowser = await browserOf(server, team.rep);
  });
});

describe('unreadable token requests', () => {
  it.each([
    ['malformed JSON', 'application/json', '{"grant_type":'],
    ['a body of another type', 'text/plain', 'grant_type=authorization_code'],
  ])('answers %s with invalid_request', async (_label, type, body) => {
    const reply = await server.as().raw('/oauth/accesstoken', { method: 'POST', headers: { 'content-type': type }, body });
    expect([reply.status, reply.body.error]).toEqual([400, 'invalid_request']);
  });
});
