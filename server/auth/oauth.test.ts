import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from './tokens.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../test/harness.js';
import {
  authorizeQuery,
  browserOf,
  codeFor,
  consent,
  type Integration,
  meWith,
  pkce,
  REDIRECT,
  redeem,
  refreshWith,
  register,
  tokenForm,
} from '../test/oauth.js';

/* The authorization-code flow end to end over HTTP: authorize, consent, code, tokens, the API, refresh, revoke. */
let server: TestServer;
let team: Team;
let client: Integration;
let repBrowser: Caller;

beforeAll(async () => {
  let api: (m: Team['vendor']) => Caller;
  ({ server, team, api } = await serverWithTeam());
  client = await register(api(team.vendor));
  repBrowser = await browserOf(server, team.rep);
});
afterAll(() => server?.close());

describe('the authorization-code flow', () => {
  it('authorize → consent → code → tokens → the API as the member → refresh → reuse revokes the family', async () => {
    const params = authorizeQuery(client);
    const authorize = await server.as().raw(`/oauth/authorize?${params}`, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get('location')).toBe(`/authorize?${params}`);

    const info = await repBrowser.get(`/oauth/consent?${params}`);
    expect(info.body.consent).toMatchObject({ integration_name: 'Acme CRM', redirect_uri: REDIRECT, csrf_token: expect.any(String) });
    const back = await consent(repBrowser, params);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('xyz');

    const tokens = await redeem(server, client, back.searchParams.get('code')!);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toEqual({
      access_token: expect.stringMatching(/^rbo_/),
      refresh_token: expect.stringMatching(/^rbr_/),
      token_type: 'bearer',
      expires_in: 604800,
    });
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect((await meWith(server, tokens.body.access_token)).body.members.members.user_id).toBe(String(team.rep.id));

    const next = await refreshWith(server, client, tokens.body.refresh_token);
    expect(next.status, next.text).toBe(200);
    expect(next.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await meWith(server, next.body.access_token)).status).toBe(200);

    const reuse = await refreshWith(server, client, tokens.body.refresh_token);
    expect([reuse.status, reuse.body.error]).toEqual([400, 'invalid_grant']);
    for (const token of [tokens.body.access_token, next.body.access_token]) expect((await meWith(server, token)).status).toBe(401);
    expect((await refreshWith(server, client, next.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('accepts the token request as JSON and with HTTP Basic client authentication', async () => {
    const code = await codeFor(repBrowser, client);
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const reply = await server.as().raw('/oauth/accesstoken', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${basic}` },
      body: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    });
    expect(reply.status, reply.text).toBe(200);
  });

  it('Deny sends the member back with access_denied and the state', async () => {
    const back = await consent(repBrowser, authorizeQuery(client, { state: 's-1' }), 'deny');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 's-1' });
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('revokes an access token (RFC 7009): refused at once; an unknown token is answered 200 too', async () => {
    const tokens = (await redeem(server, client, await codeFor(repBrowser, client))).body;
    const fields = { client_id: client.client_id, client_secret: client.client_secret };
    expect((await tokenForm(server, '/oauth/revoke', { ...fields, token: tokens.access_token })).status).toBe(200);
    expect((await meWith(server, tokens.access_token)).status).toBe(401);
    expect((await tokenForm(server, '/oauth/revoke', { ...fields, token: 'rbo_nothing' })).status).toBe(200);
    expect((await refreshWith(server, client, tokens.refresh_token)).status).toBe(200);
  });

  it('revoking a refresh token ends its whole grant', async () => {
    const tokens = (await redeem(server, client, await codeFor(repBrowser, client))).body;
    const fields = { client_id: client.client_id, client_secret: client.client_secret };
    await tokenForm(server, '/oauth/revoke', { ...fields, token: tokens.refresh_token, token_type_hint: 'refresh_token' });
    expect((await meWith(server, tokens.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('PKCE (S256)', () => {
  it('redeems with the right verifier', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(repBrowser, client, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await redeem(server, client, code, { code_verifier: verifier })).status).toBe(200);
  });

  it.each([
    ['a wrong verifier', pkce().verifier],
    ['no verifier', undefined],
  ])('refuses %s with invalid_grant', async (_label, verifier) => {
    const code = await codeFor(repBrowser, client, { code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const reply = await redeem(server, client, code, { code_verifier: verifier });
    expect([reply.status, reply.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('refuses the plain method: back to the integration with invalid_request', async () => {
    const params = authorizeQuery(client, { code_challenge: pkce().verifier, code_challenge_method: 'plain' });
    const reply = await server.as().raw(`/oauth/authorize?${params}`, { redirect: 'manual' });
    const location = new URL(reply.headers.get('location')!);
    expect([location.origin + location.pathname, location.searchParams.get('error')]).toEqual([REDIRECT, 'invalid_request']);
  });
});

describe('codes', () => {
  it('are single use: a second use is invalid_grant and revokes the tokens issued from the code', async () => {
    const code = await codeFor(repBrowser, client);
    const first = await redeem(server, client, code);
    const second = await redeem(server, client, code);
    expect([second.status, second.body.error]).toEqual([400, 'invalid_grant']);
    expect((await meWith(server, first.body.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('two redemptions at once: one answer with tokens, one invalid_grant', async () => {
    const code = await codeFor(repBrowser, client);
    const replies = await Promise.all([redeem(server, client, code), redeem(server, client, code)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
    const issued = await server.ctx.store.db
      .selectFrom('access_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'access_tokens.grant_id')
      .innerJoin('oauth_codes', 'oauth_codes.id', 'oauth_grants.code_id')
      .select('access_tokens.id')
      .where('oauth_codes.code_hash', '=', sha256(code))
      .execute();
    expect(issued).toHaveLength(1);
  });
});

describe('refresh tokens', () => {
  it('two rotations at once: one answer with tokens, one invalid_grant', async () => {
    const tokens = (await redeem(server, client, await codeFor(repBrowser, client))).body;
    const replies = await Promise.all([
      refreshWith(server, client, tokens.refresh_token),
      refreshWith(server, client, tokens.refresh_token),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
    const rows = await server.ctx.store.db
      .selectFrom('oauth_refresh_tokens')
      .innerJoin('oauth_refresh_tokens as first', 'first.grant_id', 'oauth_refresh_tokens.grant_id')
      .select('oauth_refresh_tokens.id')
      .where('first.token_hash', '=', sha256(tokens.refresh_token))
      .execute();
    expect(rows).toHaveLength(2);
  });

  it("refuses a removed member's refresh token, and its access token", async () => {
    const vendor = server.as(server.tokenOf(team.vendor));
    const created = await vendor.post('/rest/1/members', {
      username: `leaver${process.pid}`,
      password: 'correct horse battery',
      first_name: 'Lee',
      email: 'lee@example.com',
      billing_item_id: 1,
      billing_group_id: 'g',
      subgroup_id: 's',
    });
    const id = Number(created.body.members.members.user_id);
    const leaver = await server.ctx.store.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const tokens = (await redeem(server, client, await codeFor(await browserOf(server, leaver), client))).body;
    expect((await vendor.delete(`/rest/1/members/${id}`)).status).toBe(204);
    expect((await meWith(server, tokens.access_token)).status).toBe(401);
    expect((await refreshWith(server, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
  });
});
