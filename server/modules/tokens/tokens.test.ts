import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentDate, resetClock, setClock } from '../../lib/clock.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* Personal access tokens members make: shown once, listed with last use, revoked at once; the vendor sees everyone's. */
let server: TestServer;
let team: Team;
let api: (m: Team['vendor']) => Caller;

beforeAll(async () => ({ server, team, api } = await serverWithTeam()));
afterAll(() => server?.close());
afterEach(() => resetClock());

const create = async (member: Team['rep'], name: string) => {
  const reply = await api(member).post('/rest/1/tokens', { name });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.tokens.tokens as { token_id: string; token: string; name: string };
};
const listOf = async (caller: Caller, query = '') =>
  (await caller.get(`/rest/1/tokens${query}`)).body.tokens.tokens as { token_id: string; last_used_at: string | null }[];

describe('personal access tokens', () => {
  it('creates a named token shown once, lists it without the token, and lets it act as its member', async () => {
    const made = await create(team.rep, 'Zapier');
    expect(made).toMatchObject({ name: 'Zapier', user_id: String(team.rep.id), token: expect.stringMatching(/^rbp_/), last_used_at: null });
    const listed = (await listOf(api(team.rep))).find((t) => t.token_id === made.token_id);
    expect(listed).toMatchObject({ name: 'Zapier', member_name: 'Rick Test' });
    expect(listed).not.toHaveProperty('token');
    expect((await server.as(made.token).get('/rest/1/members/me')).body.members.members.user_id).toBe(String(team.rep.id));
    const stored = await server.ctx.store.db
      .selectFrom('access_tokens')
      .select('token_hash')
      .where('id', '=', Number(made.token_id))
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(made.token);
  });

  it('notes the last use at most once a minute (controlled clock)', async () => {
    const made = await create(team.rep, 'Script');
    const lastUsed = async () => (await listOf(api(team.rep))).find((t) => t.token_id === made.token_id)!;
    await server.as(made.token).get('/rest/1/members/me');
    const first = (await lastUsed()).last_used_at;
    expect(first).not.toBeNull();
    setClock(new Date(currentDate().getTime() + 30_000));
    await server.as(made.token).get('/rest/1/members/me');
    expect((await lastUsed()).last_used_at).toBe(first);
    setClock(new Date(currentDate().getTime() + 61_000));
    await server.as(made.token).get('/rest/1/members/me');
    expect((await lastUsed()).last_used_at! > first!).toBe(true);
  });

  it('revokes a token: refused from the next request, gone from the list', async () => {
    const made = await create(team.rep, 'Old script');
    expect((await api(team.rep).delete(`/rest/1/tokens/${made.token_id}`)).status).toBe(204);
    const reply = await server.as(made.token).get('/rest/1/members/me');
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([401, 40103]);
    expect((await listOf(api(team.rep))).map((t) => t.token_id)).not.toContain(made.token_id);
    expect((await api(team.rep).delete(`/rest/1/tokens/${made.token_id}`)).status).toBe(404);
  });

  it("lets the vendor list and revoke any member's token", async () => {
    const made = await create(team.teammate, 'Report');
    const all = await listOf(api(team.vendor), '?entire_team=1');
    expect(all.find((t) => t.token_id === made.token_id)).toMatchObject({ user_id: String(team.teammate.id) });
    expect((await api(team.vendor).delete(`/rest/1/tokens/${made.token_id}`)).status).toBe(204);
    expect((await server.as(made.token).get('/rest/1/members/me')).status).toBe(401);
  });

  it("hides a member's tokens from another member, a manager and another organisation's vendor", async () => {
    const made = await create(team.rep, 'Mine');
    for (const member of [team.teammate, team.manager, team.otherVendor]) {
      expect((await listOf(api(member))).map((t) => t.token_id)).not.toContain(made.token_id);
      expect((await api(member).delete(`/rest/1/tokens/${made.token_id}`)).status).toBe(404);
    }
    expect((await api(team.otherVendor).get('/rest/1/tokens?entire_team=1')).body.tokens.tokens).not.toContainEqual(
      expect.objectContaining({ token_id: made.token_id }),
    );
    expect((await api(team.manager).get('/rest/1/tokens?entire_team=1')).status).toBe(403);
    expect((await server.as(made.token).get('/rest/1/members/me')).status).toBe(200);
  });

  it("is besides the member's derived token: replacing that one leaves named tokens working", async () => {
    const made = await create(team.rep, 'Kept');
    expect((await api(team.vendor).post(`/rest/1/members/${team.rep.id}/token`)).status).toBe(200);
    expect((await server.as(made.token).get('/rest/1/members/me')).status).toBe(200);
    const me = await server.ctx.store.db.selectFrom('members').selectAll().where('id', '=', team.rep.id).executeTakeFirstOrThrow();
    team.rep = me;
    expect((await api(team.rep).get('/rest/1/members/me')).status).toBe(200);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '  ' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
  ])('refuses %s with 400', async (_label, body) => {
    expect((await api(team.rep).post('/rest/1/tokens', body)).status).toBe(400);
  });
});
