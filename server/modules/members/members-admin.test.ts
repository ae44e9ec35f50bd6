import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, TEST_PASSWORD, type Team, type TestServer } from '../../test/harness.js';

/* The members screen's extensions: contact counts, moving a member in the tree, role changes, where contacts go. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let vendor: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  vendor = api(team.vendor);
});
afterAll(() => server?.close());

let n = 0;
async function member(role: 'manager' | 'member', managerId: number) {
  const reply = await vendor.post('/rest/1/members', {
    username: `admin${process.pid}x${++n}`,
    password: TEST_PASSWORD,
    first_name: 'Adm',
    email: 'a@example.com',
    billing_item_id: 1,
    billing_group_id: 'g',
    subgroup_id: 's',
    role,
    manager_id: managerId,
  });
  return Number(reply.body.members.members.user_id);
}
const row = (id: number) => server.ctx.store.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /rest/1/members?with_counts=1', () => {
  it("gives each member's active contacts", async () => {
    await api(team.rep).post('/rest/1/contacts', { first_name: 'Counted' });
    const trashed = (await api(team.rep).post('/rest/1/contacts', { first_name: 'Trashed' })).body.contacts.contacts.contact_user_id;
    await api(team.rep).delete(`/rest/1/contacts/${trashed}`);
    const list = (await vendor.get('/rest/1/members?entire_team=1&with_counts=1')).body.members.members;
    expect(list.find((m: { user_id: string }) => m.user_id === String(team.rep.id)).contact_count).toBe(1);
    expect(list.every((m: { contact_count: unknown }) => typeof m.contact_count === 'number')).toBe(true);
    expect((await vendor.get('/rest/1/members')).body.members.members[0]).not.toHaveProperty('contact_count');
  });
});

describe('GET /rest/1/members?include_removed=1', () => {
  it('names the members removed since, with when, to whoever may see them, and shows none of their tokens', async () => {
    const leaver = await member('member', team.manager.id);
    expect((await vendor.delete(`/rest/1/members/${leaver}`)).status).toBe(204);
    type Listed = { user_id: string; date_removed?: string; oauth?: unknown };
    const listed = async (caller: Caller, query: string) =>
      ((await caller.get(`/rest/1/members?entire_team=1&page_size=100${query}`)).body.members.members as Listed[]).find(
        (m) => m.user_id === String(leaver),
      );
    expect(await listed(vendor, '')).toBeUndefined();
    const removed = await listed(vendor, '&include_removed=1');
    expect(removed?.date_removed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(removed).not.toHaveProperty('oauth');
    expect(await listed(api(team.manager), '&include_removed=1')).toMatchObject({ user_id: String(leaver) });
    expect(await listed(api(team.outsider), '&include_removed=1')).toBeUndefined();
    const current = await vendor.get('/rest/1/members?entire_team=1&include_removed=1&page_size=100');
    expect(current.body.members.members.find((m: Listed) => m.user_id === String(team.rep.id))).not.toHaveProperty('date_removed');
  });
});

describe('PUT manager_id and role (vendor only)', () => {
  it("moves a member under another manager, and its manager's scope follows", async () => {
    const other = await member('manager', team.vendor.id);
    const rep = await member('member', team.manager.id);
    const reply = await vendor.put(`/rest/1/members/${rep}`, { manager_id: other });
    expect(reply.body.members.members.manager_id).toBe(String(other));
    expect((await api(team.manager).get(`/rest/1/members/${rep}`)).status).toBe(404);
  });

  it.each([
    ['under itself', (m: { id: number }) => ({ manager_id: m.id })],
    ['under a member of its own team', (m: { child: number }) => ({ manager_id: m.child })],
    ['under a plain member', () => ({ manager_id: team.rep.id })],
    ['the vendor made a member', () => ({ role: 'member' }), () => team.vendor.id],
  ])('refuses %s with 400, changing nothing', async (_label, body, target?: () => number) => {
    const id = target ? target() : await member('manager', team.vendor.id);
    const child = await member('member', id);
    const before = await row(id);
    const reply = await vendor.put(`/rest/1/members/${id}`, body({ id, child }));
    expect(reply.status, reply.text).toBe(400);
    expect(await row(id)).toEqual(before);
  });

  it('makes a member a manager and back, but not a manager who still has a team (409)', async () => {
    const id = await member('member', team.vendor.id);
    expect((await vendor.put(`/rest/1/members/${id}`, { role: 'manager' })).body.members.members.role).toBe('manager');
    const child = await member('member', id);
    expect((await vendor.put(`/rest/1/members/${id}`, { role: 'member' })).status).toBe(409);
    await vendor.put(`/rest/1/members/${child}`, { manager_id: team.vendor.id });
    expect((await vendor.put(`/rest/1/members/${id}`, { role: 'member' })).body.members.members.role).toBe('member');
  });

  it('refuses anyone but the vendor with 403 40302', async () => {
    const reply = await api(team.manager).put(`/rest/1/members/${team.rep.id}`, { manager_id: team.vendor.id });
    expect([reply.status, reply.body.debug_codes[0].code]).toEqual([403, 40302]);
  });
});

describe('DELETE move_contacts_to', () => {
  it('gives the contacts to the member named and the team to the member above', async () => {
    const manager = await member('manager', team.vendor.id);
    const report = await member('member', manager);
    const contactOf = async () => {
      const at = '2001-01-01 00:00:00';
      return (
        await server.ctx.store.write((tx) =>
          tx
            .insertInto('contacts')
            .values({ org_id: team.vendor.org_id, owner_id: manager, created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow(),
        )
      ).id;
    };
    const contact = await contactOf();
    expect((await vendor.delete(`/rest/1/members/${manager}?move_contacts_to=${team.outsider.id}`)).status).toBe(204);
    expect(
      (await server.ctx.store.db.selectFrom('contacts').select('owner_id').where('id', '=', contact).executeTakeFirstOrThrow()).owner_id,
    ).toBe(team.outsider.id);
    expect((await row(report)).parent_id).toBe(team.vendor.id);
  });

  it('refuses a target outside the organisation or the member itself (400), deleting nothing', async () => {
    const id = await member('member', team.vendor.id);
    for (const target of [team.otherVendor.id, id, 999999]) {
      expect((await vendor.delete(`/rest/1/members/${id}?move_contacts_to=${target}`)).status).toBe(400);
    }
    expect(await row(id)).toBeDefined();
  });
});
