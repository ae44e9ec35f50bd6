import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, serverWithTeam, type TestServer } from '../../test/harness.js';

/* The grid's "Not in a folder" (no_folder, extension) and "Dial all" in the grid's order (contact_filter's sort). */
let server: TestServer;
let rep: Caller;
let folder: string;
const word = `Filtr${process.pid}`;
let loose: string[];
let filed: string;

beforeAll(async () => {
  let api;
  let team;
  ({ server, team, api } = await serverWithTeam({ PUBLIC_URL: 'https://ringbook.example.com' }));
  rep = api(team.rep);
  folder = (await api(team.vendor).post('/rest/1/folders', { name: 'Filed' })).body.folders['0'].folder_id;
  const create = async (first: string, last: string, extra: Record<string, unknown> = {}) =>
    (await rep.post('/rest/1/contacts', { first_name: first, last_name: `${last} ${word}`, ...extra })).body.contacts.contacts
      .contact_user_id as string;
  loose = [await create('Cleo', 'Brown'), await create('Abe', 'Adams'), await create('Bea', 'Cole')];
  filed = await create('Dot', 'Filed', { category_id: folder });
});
afterAll(() => server.close());

const ids = (reply: { body: any }) => reply.body.contacts.contacts.map((c: { contact_user_id: string }) => c.contact_user_id);

describe('no_folder (extension)', () => {
  it('lists only the contacts in no folder, with a total to match', async () => {
    const all = await rep.get('/rest/1/contacts?page_size=100');
    expect(ids(all)).toContain(filed);
    const reply = await rep.get('/rest/1/contacts?no_folder=1&page_size=2');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.contacts.total_results).toBe(3);
    const everyLoose = await rep.get('/rest/1/contacts?no_folder=1&page_size=100');
    expect(new Set(ids(everyLoose))).toEqual(new Set(loose));
  });

  it('combines with a search and a sort', async () => {
    const reply = await rep.get(`/rest/1/contacts?no_folder=1&search=${word}&sort_by=first_name&sort_order=ASC`);
    expect(ids(reply)).toEqual([loose[1], loose[2], loose[0]]);
    expect(reply.body.contacts.total_results).toBe(3);
  });

  it('refuses no_folder with a folder, naming it', async () => {
    const reply = await rep.get(`/rest/1/contacts?no_folder=1&category_id=${folder}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ field: 'no_folder' });
  });
});

describe('a dial session over contact_filter', () => {
  const queue = async (id: string) =>
    (
      await server.ctx.store.db
        .selectFrom('dial_session_contacts')
        .select('contact_id')
        .where('session_id', '=', Number(id))
        .orderBy('position')
        .execute()
    ).map((r) => String(r.contact_id));

  it("dials in the filter's order (the grid's sort), and no_folder leaves the filed contact out", async () => {
    const reply = await rep.post('/rest/1/dialsession', {
      contact_filter: { search: word, no_folder: 1, sort_by: 'last_name', sort_order: 'desc' },
      preview_mode: 1,
    });
    expect(reply.status, reply.text).toBe(201);
    expect(await queue(reply.body.dialsessions.dialsession_id)).toEqual([loose[2], loose[0], loose[1]]);
  });

  it('dials newest first when the filter gives no sort', async () => {
    const reply = await rep.post('/rest/1/dialsession', { contact_filter: { search: word }, preview_mode: 1 });
    expect(reply.status, reply.text).toBe(201);
    expect(await queue(reply.body.dialsessions.dialsession_id)).toEqual([...loose, filed].reverse());
  });
});
