import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { Codes } from '../../lib/http-errors.js';
import { serverWithTeam, TEST_PASSWORD, type Caller, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;

beforeAll(async () => ({ server, team, api } = await serverWithTeam()));
afterAll(() => server?.close());

let n = 0;
const newMember = (overrides: Record<string, unknown> = {}) => ({
  username: `newbie${process.pid}x${++n}`,
  password: TEST_PASSWORD,
  first_name: 'Nina',
  last_name: 'New',
  email: 'nina@example.com',
  billing_item_id: '7',
  billing_group_id: 'g',
  subgroup_id: 's',
  ...overrides,
});
const ids = (records: { user_id: string }[]) => records.map((m) => m.user_id).sort((a, b) => Number(a) - Number(b));
const idsOf = (...members: Member[]) => members.map((m) => String(m.id)).sort((a, b) => Number(a) - Number(b));

describe('GET /rest/1/members', () => {
  it.each([
    ['vendor', () => team.vendor, () => [team.vendor, team.manager, team.outsider]],
    ['manager', () => team.manager, () => [team.manager, team.rep, team.teammate]],
    ['rep', () => team.rep, () => [team.rep]],
  ])('lists the %s and its direct reports by default, with numeric paging fields', async (_label, caller, expected) => {
    const reply = await api(caller()).get('/rest/1/members');
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('success');
    const { members, ...paging } = reply.body.members;
    expect(ids(members)).toEqual(idsOf(...expected()));
    expect(paging).toEqual({ page: 1, page_size: 25, total_results: expected().length, total_pages: 1 });
  });

  it('lists the whole subtree with entire_team=1, with and without a trailing slash', async () => {
    for (const path of ['/rest/1/members?entire_team=1', '/rest/1/members/?entire_team=1']) {
      const reply = await api(team.vendor).get(path);
      expect(reply.status).toBe(200);
      expect(ids(reply.body.members.members)).toEqual(idsOf(team.vendor, team.manager, team.rep, team.teammate, team.outsider));
    }
    const managers = await api(team.manager).get('/rest/1/members?entire_team=1');
    expect(ids(managers.body.members.members)).toEqual(idsOf(team.manager, team.rep, team.teammate));
  });

  it('shows each listed member its own working bearer token', async () => {
    const reply = await api(team.vendor).get('/rest/1/members?entire_team=1');
    for (const record of reply.body.members.members) {
      const member = [team.vendor, team.manager, team.rep, team.teammate, team.outsider].find((m) => String(m.id) === record.user_id)!;
      expect(record.oauth).toEqual({ bearer_token: server.tokenOf(member) });
    }
    const rep = reply.body.members.members.find((m: { user_id: string }) => m.user_id === String(team.rep.id));
    const me = await server.as(rep.oauth.bearer_token).get('/rest/1/members/me');
    expect(me.body.members.members.user_id).toBe(String(team.rep.id));
  });

  it('pages', async () => {
    const reply = await api(team.vendor).get('/rest/1/members?entire_team=1&page=2&page_size=2');
    expect(reply.body.members).toMatchObject({ page: 2, page_size: 2, total_results: 5, total_pages: 3 });
    expect(reply.body.members.members).toHaveLength(2);
  });

  it('answers ?user_id=X with an array of one', async () => {
    const reply = await api(team.manager).get(`/rest/1/members?user_id=${team.rep.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.members.members).toEqual([expect.objectContaining({ user_id: String(team.rep.id), username: team.rep.username })]);
    expect(reply.body.members).toMatchObject({ total_results: 1, total_pages: 1 });
  });

  it.each([
    ['page_size=abc', 'page_size'],
    ['page=0', 'page'],
    ['user_id=abc', 'user_id'],
  ])('answers 400 to %s', async (query, field) => {
    const reply = await api(team.vendor).get(`/rest/1/members?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe(field);
  });
});

describe('GET /rest/1/members/me and /rest/1/members/{id}', () => {
  it('answers /me with the caller as a single object, token included', async () => {
    const reply = await api(team.rep).get('/rest/1/members/me');
    expect(reply.status).toBe(200);
    expect(reply.body.members.members).toEqual({
      user_id: String(team.rep.id),
      username: team.rep.username,
      first_name: 'Rick',
      last_name: 'Test',
      email_address: 'rick@example.com',
      date_added: team.rep.created_at,
      phone: null,
      display_name: 'Rick Test',
      billing_item_id: '1',
      subscription_status: 'active',
      role: 'member',
      manager_id: String(team.manager.id),
      oauth: { bearer_token: server.tokenOf(team.rep) },
    });
  });

  it('answers /{id} with an array of one', async () => {
    const reply = await api(team.vendor).get(`/rest/1/members/${team.teammate.id}/`);
    expect(reply.status).toBe(200);
    expect(reply.body.members.members).toEqual([expect.objectContaining({ user_id: String(team.teammate.id), first_name: 'Tess' })]);
  });

  it.each([
    ['a rep asks for its manager', () => team.rep, () => team.manager],
    ['a rep asks for a teammate', () => team.rep, () => team.teammate],
    ['a manager asks for the outsider', () => team.manager, () => team.outsider],
    ['a manager asks for the vendor', () => team.manager, () => team.vendor],
    ["the vendor asks for another organisation's vendor", () => team.vendor, () => team.otherVendor],
  ])('answers 404 when %s, by path and by ?user_id', async (_label, caller, target) => {
    for (const path of [`/rest/1/members/${target().id}`, `/rest/1/members?user_id=${target().id}`]) {
      const reply = await api(caller()).get(path);
      expect(reply.status).toBe(404);
      expect(reply.body.debug_codes[0].code).toBe(Codes.notFound);
    }
  });

  it('answers 404 to an unknown id and 400 to an id that is not a positive integer', async () => {
    expect((await api(team.vendor).get('/rest/1/members/999999')).status).toBe(404);
    const bad = await api(team.vendor).get('/rest/1/members/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.debug_codes[0]).toMatchObject({ code: Codes.invalidField, field: 'user_id' });
  });
});

describe('POST /rest/1/members', () => {
  it('lets the vendor create a member (201) whose bearer token works at once', async () => {
    const body = newMember({ phone: '555-0100', role: 'manager', manager_id: team.manager.id });
    const reply = await api(team.vendor).post('/rest/1/members', body);
    expect(reply.status).toBe(201);
    const record = reply.body.members.members;
    expect(record).toMatchObject({
      username: body.username,
      first_name: 'Nina',
      last_name: 'New',
      email_address: 'nina@example.com',
      phone: '555-0100',
      billing_item_id: '7',
      role: 'manager',
      manager_id: String(team.manager.id),
      subscription_status: 'active',
      oauth: { bearer_token: expect.stringMatching(/^rb_/) },
    });
    const me = await server.as(record.oauth.bearer_token).get('/rest/1/members/me');
    expect(me.status).toBe(200);
    expect(me.body.members.members.user_id).toBe(record.user_id);
    const seen = await api(team.manager).get(`/rest/1/members/${record.user_id}`);
    expect(seen.body.members.members[0].username).toBe(body.username);
  });

  it('takes a form body and puts the member under the vendor by default', async () => {
    const body = newMember();
    const form = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
    const reply = await api(team.vendor).form('POST', '/rest/1/members/', form);
    expect(reply.status).toBe(201);
    expect(reply.body.members.members).toMatchObject({ username: body.username, role: 'member', manager_id: String(team.vendor.id) });
  });

  it.each([
    ['manager', () => team.manager],
    ['rep', () => team.rep],
  ])('refuses a %s with 403 (vendor only) and creates nothing', async (_label, caller) => {
    const body = newMember();
    const reply = await api(caller()).post('/rest/1/members', body);
    expect(reply.status).toBe(403);
    expect(reply.body.debug_codes[0].code).toBe(Codes.vendorOnly);
    expect(
      await server.ctx.store.db.selectFrom('members').select('id').where('username', '=', body.username).executeTakeFirst(),
    ).toBeUndefined();
  });

  it.each([
    ['username missing', { username: undefined }, 'username', Codes.missingField],
    ['password missing', { password: undefined }, 'password', Codes.missingField],
    ['password shorter than 8', { password: 'short' }, 'password', Codes.invalidField],
    ['username with spaces', { username: 'no spaces allowed' }, 'username', Codes.invalidField],
    ['e-mail invalid', { email: 'not-an-address' }, 'email', Codes.invalidField],
    ['first_name blank', { first_name: '' }, 'first_name', Codes.invalidField],
    ['role unknown', { role: 'vendor' }, 'role', Codes.invalidField],
    ['manager_id junk', { manager_id: 'boss' }, 'manager_id', Codes.invalidField],
    ['manager_id negative', { manager_id: -1 }, 'manager_id', Codes.invalidField],
  ])('refuses %s with 400 naming the field', async (_label, overrides, field, code) => {
    const reply = await api(team.vendor).post('/rest/1/members', newMember(overrides));
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code, field, reason: expect.stringContaining(field) })]);
  });

  it('lists every bad field as its own debug code', async () => {
    const reply = await api(team.vendor).post('/rest/1/members', { password: 'short', email: 'nope' });
    expect(reply.status).toBe(400);
    const fields = reply.body.debug_codes.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['username', 'password', 'email', 'first_name']));
  });

  it.each([
    ['a rep (not a manager)', () => team.rep.id, Codes.invalidField],
    ['a member of another organisation', () => team.otherVendor.id, Codes.unknownReference],
    ['nobody', () => 999999, Codes.unknownReference],
  ])('refuses manager_id naming %s', async (_label, managerId, code) => {
    const reply = await api(team.vendor).post('/rest/1/members', newMember({ manager_id: managerId() }));
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code, field: 'manager_id' });
  });

  it('refuses a username that is taken with 409', async () => {
    const reply = await api(team.vendor).post('/rest/1/members', newMember({ username: team.otherVendor.username }));
    expect(reply.status).toBe(409);
    expect(reply.body.debug_codes[0].code).toBe(Codes.conflict);
  });
});
