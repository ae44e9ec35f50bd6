import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../auth/tokens.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { browserOf, codeFor, meWith, REDIRECT, redeem, register } from '../../test/oauth.js';

/* The vendor's integrations (OAuth clients) and the integrations a member connected. */
let server: TestServer;
let team: Team;
let api: (m: Team['vendor']) => Caller;
let vendor: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  vendor = api(team.vendor);
});
afterAll(() => server?.close());

describe('integrations (vendor)', () => {
  it("registers one: the client_id and the secret once; only the secret's hash is kept", async () => {
    const made = await register(vendor, [REDIRECT, 'http://localhost:5555/cb'], 'Pipeline');
    expect(made).toMatchObject({
      name: 'Pipeline',
      client_id: expect.stringMatching(/^rbi_/),
      client_secret: expect.stringMatching(/^rbs_/),
    });
    const listed = (await vendor.get('/rest/1/integrations')).body.integrations.integrations;
    expect(listed.find((i: { client_id: string }) => i.client_id === made.client_id)).not.toHaveProperty('client_secret');
    const row = await server.ctx.store.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('client_id', '=', made.client_id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(made.client_secret));
  });

  it.each([
    ['an http address elsewhere than localhost', ['http://crm.example.com/cb']],
    ['an address with a fragment', ['https://crm.example.com/cb#x']],
    ['no address', []],
    ['something that is not an address', ['crm']],
  ])('refuses %s with 400', async (_label, uris) => {
    expect((await vendor.post('/rest/1/integrations', { name: 'Bad', redirect_uris: uris })).status).toBe(400);
  });

  it("is the vendor's alone: a manager is refused, another organisation finds nothing", async () => {
    const made = await register(vendor);
    expect((await api(team.manager).get('/rest/1/integrations')).status).toBe(403);
    expect((await api(team.rep).post('/rest/1/integrations', { name: 'x', redirect_uris: [REDIRECT] })).status).toBe(403);
    expect((await api(team.otherVendor).delete(`/rest/1/integrations/${made.integration_id}`)).status).toBe(404);
  });

  it('rotates the secret: the old one is refused, the new one works', async () => {
    const made = await register(vendor);
    const rotated = (await vendor.post(`/rest/1/integrations/${made.integration_id}/secret`)).body.integrations.integrations;
    expect(rotated.client_secret).not.toBe(made.client_secret);
    const browser = await browserOf(server, team.rep);
    expect((await redeem(server, made, await codeFor(browser, made))).body.error).toBe('invalid_client');
    expect((await redeem(server, { ...made, client_secret: rotated.client_secret }, await codeFor(browser, made))).status).toBe(200);
  });

  it('edits the redirect URIs: a removed one is refused from then on', async () => {
    const made = await register(vendor);
    const reply = await vendor.put(`/rest/1/integrations/${made.integration_id}`, { redirect_uris: ['https://crm.example.com/new'] });
    expect(reply.body.integrations.integrations.redirect_uris).toEqual(['https://crm.example.com/new']);
    const browser = await browserOf(server, team.rep);
    await expect(codeFor(browser, made)).rejects.toThrow(/redirect_uri/);
  });

  it('deletes one: every token it holds is refused at once', async () => {
    const made = await register(vendor);
    const tokens = (await redeem(server, made, await codeFor(await browserOf(server, team.rep), made))).body;
    expect((await vendor.delete(`/rest/1/integrations/${made.integration_id}`)).status).toBe(204);
    expect((await meWith(server, tokens.access_token)).status).toBe(401);
    expect((await redeem(server, made, 'x')).body.error).toBe('invalid_client');
  });
});

describe('connected integrations (member)', () => {
  it('lists the integrations the member allowed, and disconnects one: its tokens are refused at once', async () => {
    const made = await register(vendor, [REDIRECT], 'Dialer sync');
    const browser = await browserOf(server, team.teammate);
    const first = (await redeem(server, made, await codeFor(browser, made))).body;
    const second = (await redeem(server, made, await codeFor(browser, made))).body;
    await meWith(server, second.access_token);
    const mine = api(team.teammate);
    const listed = (await mine.get('/rest/1/connections')).body.connections.connections;
    expect(listed).toEqual([
      { integration_id: made.integration_id, name: 'Dialer sync', connected_at: expect.any(String), last_used_at: expect.any(String) },
    ]);
    expect((await api(team.rep).delete(`/rest/1/connections/${made.integration_id}`)).status).toBe(404);
    expect((await meWith(server, first.access_token)).status).toBe(200);
    expect((await mine.delete(`/rest/1/connections/${made.integration_id}`)).status).toBe(204);
    for (const t of [first, second]) expect((await meWith(server, t.access_token)).status).toBe(401);
    expect((await mine.get('/rest/1/connections')).body.connections.connections).toEqual([]);
  });
});
