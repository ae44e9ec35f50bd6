import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
});
afterAll(() => server.close());

const newContact = async (body: object = {}) =>
  (await rep.post('/rest/1/contacts', { first_name: 'Tagged', ...body })).body.contacts.contacts.contact_user_id as string;
const recordTags = async (id: string) => (await rep.get(`/rest/1/contacts/${id}`)).body.contacts.contacts[0].tags;
const versionOf = async (id: string) =>
  (await server.ctx.store.db.selectFrom('contacts').select('version').where('id', '=', Number(id)).executeTakeFirstOrThrow()).version;
const catalog = async () => (await rep.get('/rest/1/tags?page_size=100')).body.tags.tags as { id: number; title: string }[];

describe('GET and POST /rest/1/contacts/{id}/tags', () => {
  it('adds a tag by title (202): a new title joins the catalogue, a known one (any case) is reused', async () => {
    const id = await newContact();
    const reply = await rep.post(`/rest/1/contacts/${id}/tags`, { title: 'Brand new' });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ http_status: 202, status: 'success', tag: { id: expect.any(Number), title: 'Brand new' } });
    expect(await catalog()).toContainEqual(reply.body.tag);
    const again = await rep.form('POST', `/rest/1/contacts/${id}/tags/`, 'title=BRAND+NEW');
    expect(again.body.tag).toEqual(reply.body.tag);
    await rep.post(`/rest/1/contacts/${id}/tags`, { title: 'Another' });
    const listed = await rep.get(`/rest/1/contacts/${id}/tags`);
    expect(listed.body.tags).toEqual({
      tags: [{ id: expect.any(Number), title: 'Another' }, reply.body.tag],
      page: 1,
      page_size: 25,
      total_results: 2,
      total_pages: 1,
    });
    expect(await recordTags(id)).toEqual(listed.body.tags.tags);
    expect(
      (await rep.get(`/rest/1/contacts?tag_id=${reply.body.tag.id}`)).body.contacts.contacts.map((c: any) => c.contact_user_id),
    ).toEqual([id]);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit.filter((a: any) => a.data_type === 'tag_added').map((a: any) => a.new)).toEqual(['Another', 'Brand new']);
  });

  it('changes nothing for a tag the contact holds', async () => {
    const id = await newContact({ tags: ['Held'] });
    const version = await versionOf(id);
    expect((await rep.post(`/rest/1/contacts/${id}/tags`, { title: 'held' })).body.tag.title).toBe('Held');
    expect(await versionOf(id)).toBe(version);
  });

  it.each([
    [{}, 40002],
    [{ title: '' }, 40003],
    [{ title: { a: 1 } }, 40003],
  ])('refuses %j with a 400 naming title, storing nothing', async (body, code) => {
    const id = await newContact();
    const [version, tags] = [await versionOf(id), (await catalog()).length];
    const reply = await rep.post(`/rest/1/contacts/${id}/tags`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'title', code });
    expect([await versionOf(id), (await catalog()).length]).toEqual([version, tags]);
  });
});

describe('GET, PUT and DELETE /rest/1/contacts/{id}/tags/{tag_id}', () => {
  it('answers a tag the contact holds with http_status 202, and 404 for one it does not hold', async () => {
    const id = await newContact({ tags: ['Mine'] });
    const [tag] = await recordTags(id);
    expect((await rep.get(`/rest/1/contacts/${id}/tags/${tag.id}`)).body).toEqual({ http_status: 202, status: 'success', tag });
    const other = await newContact();
    expect((await rep.get(`/rest/1/contacts/${other}/tags/${tag.id}`)).status).toBe(404);
    expect((await rep.get(`/rest/1/contacts/${id}/tags/x`)).body.debug_codes[0].field).toBe('tag_id');
  });

  it('gives the contact the tag with the new title in place of the old one; other contacts keep the old tag', async () => {
    const id = await newContact({ tags: ['Old title', 'Kept'] });
    const other = await newContact({ tags: ['Old title'] });
    const old = (await recordTags(id)).find((t: any) => t.title === 'Old title');
    const reply = await rep.put(`/rest/1/contacts/${id}/tags/${old.id}`, { title: 'New title' });
    expect(reply.status).toBe(202);
    expect(reply.body.tag).toEqual({ id: expect.any(Number), title: 'New title' });
    expect((await recordTags(id)).map((t: any) => t.title)).toEqual(['Kept', 'New title']);
    expect(await recordTags(other)).toEqual([old]);
    const activities = (await rep.get(`/rest/1/contacts/${id}/activities?days=1`)).body.contact_activities.contact_activities;
    expect(activities[0]).toMatchObject({ activity_id: '10', activity: 'Tag "Old title" replaced by "New title"' });
    // Onto a tag it holds already: the old one simply goes.
    const kept = (await recordTags(id)).find((t: any) => t.title === 'Kept');
    await rep.form('PUT', `/rest/1/contacts/${id}/tags/${kept.id}`, 'title=new+TITLE');
    expect((await recordTags(id)).map((t: any) => t.title)).toEqual(['New title']);
    expect((await rep.put(`/rest/1/contacts/${id}/tags/${kept.id}`, { title: 'Again' })).status).toBe(404);
    expect((await rep.put(`/rest/1/contacts/${id}/tags/${reply.body.tag.id}`, { title: '' })).status).toBe(400);
  });

  it('removes a tag from the contact (204), leaving it in the catalogue', async () => {
    const id = await newContact({ tags: ['Removable'] });
    const [tag] = await recordTags(id);
    const reply = await rep.delete(`/rest/1/contacts/${id}/tags/${tag.id}`);
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect(await recordTags(id)).toEqual([]);
    expect(await catalog()).toContainEqual(tag);
    expect((await rep.delete(`/rest/1/contacts/${id}/tags/${tag.id}`)).status).toBe(404);
    const audit = (await rep.get(`/rest/1/contacts/${id}/auditlog`)).body.contact_activities.contact_activities;
    expect(audit[0]).toMatchObject({ data_type: 'tag_removed', old: 'Removable' });
  });
});

describe("another member's contact", () => {
  it('answers 404 on every route and changes nothing', async () => {
    const id = await newContact({ tags: ['Private'] });
    const [tag] = await recordTags(id);
    const version = await versionOf(id);
    for (const who of ['teammate', 'outsider', 'otherVendor'] as const) {
      const other = api(team[who]);
      const replies = [
        await other.get(`/rest/1/contacts/${id}/tags`),
        await other.get(`/rest/1/contacts/${id}/tags/${tag.id}`),
        await other.post(`/rest/1/contacts/${id}/tags`, { title: 'Theirs' }),
        await other.put(`/rest/1/contacts/${id}/tags/${tag.id}`, { title: 'Theirs' }),
        await other.delete(`/rest/1/contacts/${id}/tags/${tag.id}`),
      ];
      expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    }
    expect([await versionOf(id), await recordTags(id)]).toEqual([version, [tag]]);
    expect((await catalog()).map((t) => t.title)).not.toContain('Theirs');
  });
});
