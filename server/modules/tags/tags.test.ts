import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { deleteTag, findTag } from './tags.repository.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let vendor: Caller;
let rep: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  [vendor, rep] = [api(team.vendor), api(team.rep)];
});
afterAll(() => server.close());

const newContact = async (caller: Caller, body: object) =>
  (await caller.post('/rest/1/contacts', { first_name: 'Tagged', ...body })).body.contacts.contacts.contact_user_id as string;
const tagsOf = async (caller: Caller, id: string) => (await caller.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0].tags;
const catalog = async (caller: Caller, query = '') => (await caller.get(`/rest/1/tags?page_size=100${query}`)).body.tags.tags;
const idOfTag = async (title: string) => (await catalog(vendor)).find((t: any) => t.title === title)?.id as number;
const catalogVersion = async () =>
  (
    await server.ctx.store.db
      .selectFrom('organisations')
      .select('catalog_version')
      .where('id', '=', team.vendor.org_id)
      .executeTakeFirstOrThrow()
  ).catalog_version;

describe('POST /rest/1/tags', () => {
  it('adds a tag for any member (202, { id, tag }); a title taken in any case is a 409', async () => {
    const reply = await rep.post('/rest/1/tags', { title: 'Prospect' });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ http_status: 202, status: 'success', tag: { id: expect.any(Number), tag: 'Prospect' } });
    expect(await catalog(api(team.teammate))).toContainEqual({ id: reply.body.tag.id, title: 'Prospect' });
    const clash = await vendor.form('POST', '/rest/1/tags/', 'title=PROSPECT');
    expect([clash.status, clash.body.debug_codes[0].code]).toEqual([409, 40901]);
    expect(clash.body.debug_codes[0].reason).toContain('"Prospect"');
    // Another organisation has its own catalogue.
    expect((await api(team.otherVendor).post('/rest/1/tags', { title: 'prospect' })).status).toBe(202);
  });

  it.each([
    [{}, 40002],
    [{ title: '' }, 40003],
    [{ title: '   ' }, 40003],
    [{ title: 'x'.repeat(101) }, 40003],
    [{ title: ['a'] }, 40003],
  ])('refuses %j with a 400 naming title, and adds nothing', async (body, code) => {
    const before = (await catalog(vendor)).length;
    const reply = await rep.post('/rest/1/tags', body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'title', code });
    expect((await catalog(vendor)).length).toBe(before);
  });
});

describe('GET /rest/1/tags?with_counts=1', () => {
  it("counts the contacts in the caller's scope that the default list shows with each tag, in one answer", async () => {
    await newContact(rep, { tags: ['Counted', 'Other'] });
    const trashed = await newContact(rep, { tags: ['Counted'] });
    await rep.delete(`/rest/1/contacts/${trashed}`);
    await newContact(api(team.teammate), { tags: ['Counted'] });
    await newContact(api(team.outsider), { tags: ['Counted'] });
    const id = await idOfTag('Counted');
    const count = async (caller: Caller) => (await catalog(caller, '&with_counts=1')).find((t: any) => t.id === id).contact_count;
    expect([await count(rep), await count(api(team.manager)), await count(vendor)]).toEqual([1, 2, 3]);
    for (const caller of [rep, api(team.manager), vendor]) {
      expect(await count(caller)).toBe((await caller.get(`/rest/1/contacts?tag_id=${id}&page_size=1`)).body.contacts.total_results);
    }
    expect((await catalog(rep)).find((t: any) => t.id === id)).toEqual({ id, title: 'Counted' });
    expect((await rep.get('/rest/1/tags?with_counts=maybe')).status).toBe(400);
  });
});

describe('PUT /rest/1/tags/{id}', () => {
  it('renames the tag for the vendor (202, { id, tag }): every contact holding it shows the new title', async () => {
    const contact = await newContact(rep, { tags: ['Warm lead'] });
    const id = await idOfTag('Warm lead');
    const version = await catalogVersion();
    const reply = await vendor.put(`/rest/1/tags/${id}/`, { title: 'Hot lead' });
    expect(reply.status).toBe(202);
    expect(reply.body.tag).toEqual({ id, tag: 'Hot lead' });
    expect(await tagsOf(rep, contact)).toEqual([{ id, title: 'Hot lead' }]);
    expect(await catalogVersion()).toBeGreaterThan(version);
    expect((await vendor.form('PUT', `/rest/1/tags/${id}`, 'title=HOT+LEAD')).body.tag).toEqual({ id, tag: 'HOT LEAD' });
    const unchanged = await catalogVersion();
    expect((await vendor.put(`/rest/1/tags/${id}`, { title: 'HOT LEAD' })).status).toBe(202);
    expect(await catalogVersion()).toBe(unchanged);
  });

  it("refuses a member (403 40302), a title taken (409), a bad title (400) and another organisation's tag (404), changing nothing", async () => {
    await newContact(rep, { tags: ['Keep', 'Taken'] });
    const id = await idOfTag('Keep');
    const forbidden = await api(team.manager).put(`/rest/1/tags/${id}`, { title: 'Mine' });
    expect([forbidden.status, forbidden.body.debug_codes[0].code]).toEqual([403, 40302]);
    expect((await vendor.put(`/rest/1/tags/${id}`, { title: 'taken' })).status).toBe(409);
    expect((await vendor.put(`/rest/1/tags/${id}`, {})).body.debug_codes[0]).toMatchObject({ field: 'title', code: 40002 });
    expect((await api(team.otherVendor).put(`/rest/1/tags/${id}`, { title: 'Theirs' })).status).toBe(404);
    expect((await vendor.put('/rest/1/tags/99999999', { title: 'Nobody' })).status).toBe(404);
    expect((await vendor.put('/rest/1/tags/abc', { title: 'Nobody' })).body.debug_codes[0].field).toBe('tag_id');
    expect((await catalog(vendor)).find((t: any) => t.id === id).title).toBe('Keep');
  });
});

describe('DELETE /rest/1/tags/{id}', () => {
  it('deletes the tag for the vendor (204) and removes it from every contact, each recording it', async () => {
    const mine = await newContact(rep, { tags: ['Doomed', 'Stays'] });
    const theirs = await newContact(api(team.outsider), { tags: ['Doomed'] });
    const id = await idOfTag('Doomed');
    expect((await rep.delete(`/rest/1/tags/${id}`)).body.debug_codes[0].code).toBe(40302);
    const reply = await vendor.delete(`/rest/1/tags/${id}`);
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect((await tagsOf(rep, mine)).map((t: any) => t.title)).toEqual(['Stays']);
    expect(await tagsOf(api(team.outsider), theirs)).toEqual([]);
    expect(await idOfTag('Doomed')).toBeUndefined();
    for (const [caller, contact] of [
      [rep, mine],
      [api(team.outsider), theirs],
    ] as const) {
      const audit = (await caller.get(`/rest/1/contacts/${contact}/auditlog`)).body.contact_activities.contact_activities;
      expect(audit[0]).toMatchObject({
        action: 'update',
        data_type: 'tag_removed',
        old: 'Doomed',
        new: '',
        member_id: String(team.vendor.id),
      });
      const activities = (await caller.get(`/rest/1/contacts/${contact}/activities?days=1`)).body.contact_activities.contact_activities;
      expect(activities[0]).toMatchObject({ activity_id: '10', activity: 'Tag "Doomed" removed: the tag was deleted' });
    }
    expect((await vendor.delete(`/rest/1/tags/${id}`)).status).toBe(404);
    expect((await api(team.otherVendor).delete(`/rest/1/tags/${await idOfTag('Stays')}`)).status).toBe(404);
  });

  it('removes the tag from contacts chunk by chunk, all in one transaction', async () => {
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push(await newContact(rep, { last_name: `Chunk ${i}`, tags: ['Chunked'] }));
    const tag = (await findTag(server.ctx.store.db, team.vendor.org_id, await idOfTag('Chunked')))!;
    await server.ctx.store.write((tx) => deleteTag(tx, tag, team.vendor.id, '2030-01-01 00:00:00', 3));
    const left = await server.ctx.store.db.selectFrom('contact_tags').select('contact_id').where('tag_id', '=', tag.id).execute();
    expect(left).toEqual([]);
    const audits = await server.ctx.store.db
      .selectFrom('contact_audit')
      .select('contact_id')
      .where('data_type', '=', 'tag_removed')
      .where('created_at', '=', '2030-01-01 00:00:00')
      .execute();
    expect(audits.map((a) => String(a.contact_id)).sort()).toEqual([...ids].sort());
  });
});
