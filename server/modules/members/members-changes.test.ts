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
/** A throwaway member, so tests that change or delete members leave the seeded team alone. */
async function createMember(role: 'manager' | 'member', manager: Member): Promise<Member> {
  const reply = await api(team.vendor).post('/rest/1/members', {
    username: `temp${process.pid}x${++n}`,
    password: TEST_PASSWORD,
    first_name: 'Temp',
    email: 'temp@example.com',
    billing_item_id: 1,
    billing_group_id: 'g',
    subgroup_id: 's',
    role,
    manager_id: manager.id,
  });
  expect(reply.status, reply.text).toBe(201);
  return memberRow(Number(reply.body.members.members.user_id)) as Promise<Member>;
}

const memberRow = (id: number) => server.ctx.store.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();

async function contactOwnedBy(owner: Member) {
  const at = '2001-01-01 00:00:00';
  const row = await server.ctx.store.write((tx) =>
    tx
      .insertInto('contacts')
      .values({ org_id: owner.org_id, owner_id: owner.id, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

describe('PUT /rest/1/members/{id}', () => {
  it('updates a member from JSON, and the change reads back', async () => {
    const member = await createMember('member', team.manager);
    const reply = await api(team.vendor).put(`/rest/1/members/${member.id}`, { first_name: 'Paula', last_name: 'Put', phone: '555-0199' });
    expect(reply.status).toBe(200);
    expect(reply.body.members.members).toMatchObject({
      user_id: String(member.id),
      first_name: 'Paula',
      last_name: 'Put',
      phone: '555-0199',
      display_name: 'Paula Put',
    });
    const read = await api(team.vendor).get(`/rest/1/members/${member.id}`);
    expect(read.body.members.members[0]).toMatchObject({ first_name: 'Paula', last_name: 'Put', email_address: 'temp@example.com' });
  });

  it('updates a member from a form body', async () => {
    const member = await createMember('member', team.manager);
    const reply = await api(team.vendor).form('PUT', `/rest/1/members/${member.id}`, 'first_name=Formy&email_address=y%40z.com');
    expect(reply.status).toBe(200);
    expect(reply.body.members.members).toMatchObject({ first_name: 'Formy', email_address: 'y@z.com' });
    expect(await memberRow(member.id)).toMatchObject({ first_name: 'Formy', email: 'y@z.com' });
  });

  it('lets a manager update its rep, and a rep itself', async () => {
    const rep = await createMember('member', team.manager);
    expect((await api(team.manager).put(`/rest/1/members/${rep.id}`, { last_name: 'Managed' })).status).toBe(200);
    expect((await api(rep).put(`/rest/1/members/${rep.id}/`, { first_name: 'Self' })).status).toBe(200);
    expect(await memberRow(rep.id)).toMatchObject({ first_name: 'Self', last_name: 'Managed' });
  });

  it.each([
    ['a rep updates its manager', () => team.rep, () => team.manager],
    ['a rep updates the outsider', () => team.rep, () => team.outsider],
    ['a manager updates the vendor', () => team.manager, () => team.vendor],
    ["the vendor updates another organisation's member", () => team.vendor, () => team.otherVendor],
  ])('answers 404 when %s and changes nothing', async (_label, caller, target) => {
    const reply = await api(caller()).put(`/rest/1/members/${target().id}`, { first_name: 'Hacked' });
    expect(reply.status).toBe(404);
    expect(reply.body.debug_codes[0].code).toBe(Codes.notFound);
    expect((await memberRow(target().id))!.first_name).not.toBe('Hacked');
  });

  it.each([
    ['email_address invalid', { email_address: 'nope' }, 'email_address'],
    ['first_name blank', { first_name: '' }, 'first_name'],
    ['username invalid', { username: 'a b' }, 'username'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const reply = await api(team.vendor).put(`/rest/1/members/${team.teammate.id}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code: Codes.invalidField, field })]);
  });

  it('refuses a username that is taken with 409, and accepts the member keeping its own', async () => {
    const member = await createMember('member', team.manager);
    expect((await api(team.vendor).put(`/rest/1/members/${member.id}`, { username: team.rep.username })).status).toBe(409);
    expect((await api(team.vendor).put(`/rest/1/members/${member.id}`, { username: member.username })).status).toBe(200);
  });

  it('answers 404 to an unknown member and 400 to a bad id', async () => {
    expect((await api(team.vendor).put('/rest/1/members/999999', { first_name: 'X' })).status).toBe(404);
    expect((await api(team.vendor).put('/rest/1/members/0', { first_name: 'X' })).status).toBe(400);
  });
});

describe('DELETE /rest/1/members/{id}', () => {
  it('deletes a rep: its contacts go to its manager with an audit row each, and its token stops working', async () => {
    const rep = await createMember('member', team.manager);
    const token = server.tokenOf(rep);
    const contacts = [await contactOwnedBy(rep), await contactOwnedBy(rep)];
    const reply = await api(team.vendor).delete(`/rest/1/members/${rep.id}`);
    expect(reply.status).toBe(204);
    expect((await memberRow(rep.id))!.removed_at).toEqual(expect.any(String));
    expect((await api(team.vendor).get(`/rest/1/members/${rep.id}`)).status).toBe(404);
    const moved = await server.ctx.store.db.selectFrom('contacts').select(['id', 'owner_id']).where('id', 'in', contacts).execute();
    expect(moved.map((c) => c.owner_id)).toEqual([team.manager.id, team.manager.id]);
    const audit = await server.ctx.store.db.selectFrom('contact_audit').selectAll().where('contact_id', 'in', contacts).execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      member_id: team.vendor.id,
      data_type: 'transferred',
      old_value: String(rep.id),
      new_value: String(team.manager.id),
    });
    const after = await server.as(token).get('/rest/1/members/me');
    expect(after.status).toBe(401);
  });

  it('deletes a manager: its team moves to the member above it', async () => {
    const manager = await createMember('manager', team.vendor);
    const rep = await createMember('member', manager);
    expect((await api(team.vendor).delete(`/rest/1/members/${manager.id}`)).status).toBe(204);
    expect((await memberRow(rep.id))!.parent_id).toBe(team.vendor.id);
    const mine = await api(team.vendor).get('/rest/1/members');
    expect(mine.body.members.members.map((m: { user_id: string }) => m.user_id)).toContain(String(rep.id));
  });

  it.each([
    ['manager deletes its rep', () => team.manager, () => team.rep],
    ['rep deletes itself', () => team.rep, () => team.rep],
  ])('refuses with 403 (vendor only) when a %s', async (_label, caller, target) => {
    const reply = await api(caller()).delete(`/rest/1/members/${target().id}`);
    expect(reply.status).toBe(403);
    expect(reply.body.debug_codes[0].code).toBe(Codes.vendorOnly);
    expect(await memberRow(target().id)).toBeDefined();
  });

  it('refuses to let the vendor delete itself', async () => {
    const reply = await api(team.vendor).delete(`/rest/1/members/${team.vendor.id}`);
    expect(reply.status).toBe(403);
    expect(await memberRow(team.vendor.id)).toBeDefined();
    expect((await api(team.vendor).get('/rest/1/members/me')).status).toBe(200);
  });

  it("answers 404 to an unknown member and to another organisation's member, which stays", async () => {
    expect((await api(team.vendor).delete('/rest/1/members/999999')).status).toBe(404);
    expect((await api(team.vendor).delete(`/rest/1/members/${team.otherVendor.id}`)).status).toBe(404);
    expect(await memberRow(team.otherVendor.id)).toBeDefined();
  });

  it('answers 400 to a bad id', async () => {
    const reply = await api(team.vendor).delete('/rest/1/members/abc');
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe('user_id');
  });
});
