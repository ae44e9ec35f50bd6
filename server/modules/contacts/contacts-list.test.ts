import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let rep: Caller;
let vendor: Caller;
let folderId: string;
const ids: Record<string, string> = {};

const names = (reply: { body: any }) => reply.body.contacts.contacts.map((c: any) => c.first_name);

beforeAll(async () => {
  let api: (member: Member) => Caller;
  ({ server, team, api } = await serverWithTeam());
  [rep, vendor] = [api(team.rep), api(team.vendor)];
  folderId = (await vendor.post('/rest/1/folders', { name: 'Prospects' })).body.folders['0'].folder_id;
  const people = [
    {
      first_name: 'Alice',
      last_name: 'Zimmer',
      email: 'Alice@Example.com',
      phone: '212-555-0101',
      category_id: folderId,
      tags: ['VIP'],
      rating: 5,
    },
    { first_name: 'Bob', last_name: 'Young', email: 'bob@example.com', phone: '(303) 555-0102', rating: 2 },
    { first_name: 'Carol', last_name: 'Xu', email: 'carol@example.org', phone: '4155550103', category_id: folderId },
    { first_name: 'Dave', last_name: 'Walker', email: 'dave@example.org', phone: '+1 907 555 0104', tags: ['vip'] },
  ];
  for (const p of people) ids[p.first_name] = (await rep.post('/rest/1/contacts', p)).body.contacts.contacts.contact_user_id;
  await api(team.teammate).post('/rest/1/contacts', { first_name: 'Tina', email: 'tina@example.com' });
  await api(team.otherVendor).post('/rest/1/contacts', { first_name: 'Foreign', email: 'alice@example.com' });
});
afterAll(() => server.close());

describe('GET /rest/1/contacts', () => {
  it("lists the caller's contacts newest first, with numeric paging fields beside the array", async () => {
    const reply = await rep.get('/rest/1/contacts');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ http_status: 200, status: 'success' });
    expect(names(reply)).toEqual(['Dave', 'Carol', 'Bob', 'Alice']);
    expect(reply.body.contacts).toMatchObject({
      page: 1,
      page_size: 25,
      total_results: 4,
      total_pages: 1,
      member_user_id: String(team.rep.id),
    });
  });

  it('answers oldest first with sort_order=ASC', async () => {
    expect(names(await rep.get('/rest/1/contacts?sort_order=asc'))).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
  });

  it.each([
    ['a manager sees its team', 'manager', ['Tina', 'Dave', 'Carol', 'Bob', 'Alice']],
    ['a vendor sees its organisation', 'vendor', ['Tina', 'Dave', 'Carol', 'Bob', 'Alice']],
    ['a rep outside the team sees none of them', 'outsider', []],
    ['another organisation sees only its own', 'otherVendor', ['Foreign']],
  ] as const)('%s', async (_label, who, expected) => {
    expect(names(await server.as(server.tokenOf(team[who])).get('/rest/1/contacts'))).toEqual(expected);
  });

  it('pages, and a page past the end is an empty list', async () => {
    const first = await rep.get('/rest/1/contacts?page_size=3&page=1');
    expect(names(first)).toEqual(['Dave', 'Carol', 'Bob']);
    expect(first.body.contacts).toMatchObject({ total_results: 4, total_pages: 2, page_size: 3 });
    expect(names(await rep.get('/rest/1/contacts?page_size=3&page=2'))).toEqual(['Alice']);
    const past = await rep.get('/rest/1/contacts?page_size=3&page=9');
    expect(past.status).toBe(200);
    expect(past.body.contacts.contacts).toEqual([]);
  });

  it.each([
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=abc', 'page_size'],
    ['page=0', 'page'],
    ['sort_order=sideways', 'sort_order'],
    ['sort_by=shoe_size', 'sort_by'],
    ['updated_from=yesterday', 'updated_from'],
    ['created_from=2026-13', 'created_from'],
    ['include_new=1', 'include_new'],
    ['category_id=abc', 'category_id'],
  ])('refuses %s with a 400 naming the parameter', async (query, field) => {
    const reply = await rep.get(`/rest/1/contacts?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.status).toBe('error');
    expect(reply.body.debug_codes).toEqual([
      expect.objectContaining({ field, code: expect.any(Number), reason: expect.stringContaining(field) }),
    ]);
  });

  it('ignores unknown query parameters', async () => {
    expect(names(await rep.get('/rest/1/contacts?colour=blue&sort_order=ASC'))).toEqual(['Alice', 'Bob', 'Carol', 'Dave']);
  });

  it.each([['category_id'], ['folder_id']])('filters by folder with %s', async (param) => {
    expect(names(await rep.get(`/rest/1/contacts?${param}=${folderId}`))).toEqual(['Carol', 'Alice']);
  });

  it("finds by exact e-mail address, ignoring case, and only within the caller's contacts", async () => {
    expect(names(await rep.get('/rest/1/contacts?email_address=ALICE@example.com'))).toEqual(['Alice']);
    expect(names(await rep.get('/rest/1/contacts?email_address=alice@example'))).toEqual([]);
  });

  it.each([
    ['a first-name prefix', 'ali', ['Alice']],
    ['a last-name prefix', 'youn', ['Bob']],
    ['a full name', 'carol x', ['Carol']],
    ['an e-mail prefix', 'dave@ex', ['Dave']],
    ['formatted phone digits', '(907) 555', ['Dave']],
    ['plain phone digits', '3035550102', ['Bob']],
    ['nothing that matches', 'zzz', []],
  ])('searches by %s', async (_label, search, expected) => {
    expect(names(await rep.get(`/rest/1/contacts?search=${encodeURIComponent(search)}`))).toEqual(expected);
  });

  it('filters by tag (tags are case-insensitive titles)', async () => {
    const tags = (await rep.get('/rest/1/tags')).body.tags.tags;
    const vip = tags.find((t: any) => t.title === 'VIP');
    expect(names(await rep.get(`/rest/1/contacts?tag_id=${vip.id}`))).toEqual(['Dave', 'Alice']);
  });

  it.each([
    ['last_name', 'ASC', ['Dave', 'Carol', 'Bob', 'Alice']],
    ['first_name', 'DESC', ['Dave', 'Carol', 'Bob', 'Alice']],
    ['rating', 'DESC', ['Alice', 'Bob', 'Dave', 'Carol']],
    ['email', 'ASC', ['Alice', 'Bob', 'Carol', 'Dave']],
  ])('sorts by %s %s', async (column, order, expected) => {
    expect(names(await rep.get(`/rest/1/contacts?sort_by=${column}&sort_order=${order}`))).toEqual(expected);
  });

  it('filters by creation date and date-time', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(names(await rep.get(`/rest/1/contacts?created_from=${today}&created_to=${today}`))).toHaveLength(4);
    expect(names(await rep.get('/rest/1/contacts?created_to=2020-01-01'))).toEqual([]);
    expect(names(await rep.get(`/rest/1/contacts?created_from=${encodeURIComponent('2999-01-01 00:00:00')}`))).toEqual([]);
  });

  it('finds updated contacts since a time; include_new adds the ones created since then', async () => {
    await server.ctx.store.write(async (db) => {
      await db
        .updateTable('contacts')
        .set({ created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' })
        .where('owner_id', '=', team.rep.id)
        .execute();
      await db.updateTable('contacts').set({ updated_at: '2026-03-01 00:00:00' }).where('first_name', '=', 'Bob').execute();
      await db
        .updateTable('contacts')
        .set({ created_at: '2026-03-02 00:00:00', updated_at: '2026-03-02 00:00:00' })
        .where('first_name', '=', 'Carol')
        .execute();
    });
    const from = encodeURIComponent('2026-02-01 00:00:00');
    expect(names(await rep.get(`/rest/1/contacts?updated_from=${from}`))).toEqual(['Bob']);
    expect(names(await rep.get(`/rest/1/contacts?updated_from=${from}&include_new=1`))).toEqual(['Carol', 'Bob']);
    const to = encodeURIComponent('2026-03-01 12:00:00');
    expect(names(await rep.get(`/rest/1/contacts?updated_from=${from}&update_to=${to}&include_new=1`))).toEqual(['Bob']);
  });

  it('leaves trashed contacts out unless include_trashed=1, and archived ones unless include_archived=1', async () => {
    await rep.delete(`/rest/1/contacts/${ids.Bob}`);
    await server.ctx.store.write((db) => db.updateTable('contacts').set({ archived: 1 }).where('id', '=', Number(ids.Carol)).execute());
    expect(names(await rep.get('/rest/1/contacts'))).toEqual(['Dave', 'Alice']);
    expect(names(await rep.get('/rest/1/contacts?include_trashed=1'))).toEqual(['Dave', 'Bob', 'Alice']);
    expect(names(await rep.get('/rest/1/contacts?include_archived=1'))).toEqual(['Dave', 'Carol', 'Alice']);
    expect(names(await rep.get('/rest/1/contacts?include_trashed=1&include_archived=1'))).toHaveLength(4);
  });

  it('works with a trailing slash and with Content-Type: application/json on a GET', async () => {
    const reply = await rep.raw('/rest/1/contacts/?page_size=1', { method: 'GET', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
    expect(reply.body.contacts.contacts).toHaveLength(1);
  });
});
