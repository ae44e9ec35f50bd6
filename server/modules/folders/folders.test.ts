import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../lib/http-errors.js';
import type { Member } from '../../db/schema.js';
import { serverWithTeam, type Caller, type Team, type TestServer } from '../../test/harness.js';
import { createVendor } from '../members/members.service.js';

let server: TestServer;
let team: Team;
let vendor: Caller;
let rep: Caller;
let other: Caller;

beforeAll(async () => {
  let api: (member: Member) => Caller;
  ({ server, team, api } = await serverWithTeam());
  [vendor, rep, other] = [api(team.vendor), api(team.rep), api(team.otherVendor)];
});
afterAll(() => server?.close());

let n = 0;
const uniqueName = (prefix = 'Folder') => `${prefix} ${++n}`;

async function create(api: Caller, body: Record<string, unknown>) {
  const reply = await api.post('/rest/1/folders', body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.folders['0'] as { folder_id: string; folder_name: string; description: string; parent_id: string };
}

/** A vendor of a brand-new organisation, for listings that must see only their own folders. */
async function freshOrg(): Promise<Caller> {
  const member = await createVendor(server.ctx, {
    username: `fresh${process.pid}x${++n}`,
    password: 'correct horse battery',
    email: 'f@example.com',
  });
  return server.as(server.tokenOf(member));
}

const list = async (api: Caller, query = '') => {
  const reply = await api.get(`/rest/1/folders${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.folders;
};

describe('POST /rest/1/folders', () => {
  it('lets any member create a folder, answers 200 with the folder keyed "0", and lists it', async () => {
    const reply = await rep.post('/rest/1/folders', { name: '  Hot leads  ', description: 'Call first' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ http_status: 200, status: 'success' });
    const folder = reply.body.folders['0'];
    expect(folder).toEqual({
      folder_id: expect.stringMatching(/^\d+$/),
      folder_name: 'Hot leads',
      description: 'Call first',
      parent_id: '0',
    });
    const listed = Object.values(await list(vendor, '?page_size=500'));
    expect(listed).toContainEqual(folder);
  });

  it('creates a sub-folder from a form body with parent_id as a numeric string', async () => {
    const parent = await create(vendor, { name: uniqueName() });
    const reply = await rep.form('POST', '/rest/1/folders', `name=Child&parent_id=${parent.folder_id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.folders['0']).toMatchObject({ folder_name: 'Child', description: '', parent_id: parent.folder_id });
  });

  it.each([
    ['0', 0],
    ['an empty string', ''],
  ])('puts the folder at the top level when parent_id is %s', async (_label, parent_id) => {
    expect((await create(vendor, { name: uniqueName(), parent_id })).parent_id).toBe('0');
  });

  it.each([
    ['name missing', {}, 'name', Codes.missingField],
    ['name blank', { name: '   ' }, 'name', Codes.invalidField],
    ['name too long', { name: 'x'.repeat(101) }, 'name', Codes.invalidField],
    ['description too long', { name: 'Ok', description: 'x'.repeat(1001) }, 'description', Codes.invalidField],
    ['parent_id not a number', { name: 'Ok', parent_id: 'abc' }, 'parent_id', Codes.invalidField],
    ['parent_id negative', { name: 'Ok', parent_id: -3 }, 'parent_id', Codes.invalidField],
    ['parent_id unknown', { name: 'Ok', parent_id: 999999 }, 'parent_id', Codes.unknownReference],
  ])('refuses %s with 400 naming the field', async (_label, body, field, code) => {
    const reply = await rep.post('/rest/1/folders', body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes).toEqual([expect.objectContaining({ code, field, reason: expect.stringContaining(field) })]);
  });

  it('lists every bad field as its own debug code', async () => {
    const reply = await rep.post('/rest/1/folders', { description: 'x'.repeat(1001), parent_id: 'abc' });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes.map((d: { field: string }) => d.field).sort()).toEqual(['description', 'name', 'parent_id']);
  });

  it("refuses another organisation's folder as parent as if it did not exist", async () => {
    const foreign = await create(other, { name: uniqueName() });
    const reply = await vendor.post('/rest/1/folders', { name: 'Ok', parent_id: foreign.folder_id });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.unknownReference, field: 'parent_id' });
  });

  it('refuses a sub-folder as parent: only one level of sub-folders', async () => {
    const top = await create(vendor, { name: uniqueName() });
    const sub = await create(vendor, { name: 'Level 1', parent_id: top.folder_id });
    const reply = await vendor.post('/rest/1/folders', { name: 'Level 2', parent_id: sub.folder_id });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.invalidField, field: 'parent_id' });
    expect(reply.body.debug_codes[0].reason).toMatch(/only one level of sub-folders/);
  });

  it('keeps names unique among siblings, case-insensitively, and only among siblings', async () => {
    const name = uniqueName('Unique');
    const top = await create(vendor, { name });
    const again = await rep.post('/rest/1/folders', { name: name.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.debug_codes[0].code).toBe(Codes.conflict);
    await create(vendor, { name, parent_id: top.folder_id });
    expect((await vendor.post('/rest/1/folders', { name, parent_id: top.folder_id })).status).toBe(409);
    await create(other, { name });
  });
});

describe('GET /rest/1/folders', () => {
  it('lists every folder of the organisation by name then id, keyed by position, with numeric paging fields', async () => {
    const api = await freshOrg();
    const beta = await create(api, { name: 'beta' });
    const alpha = await create(api, { name: 'Alpha', description: 'first' });
    const sub = await create(api, { name: 'Gamma', parent_id: beta.folder_id });
    const folders = await list(api);
    expect(folders).toEqual({
      '0': alpha,
      '1': beta,
      '2': sub,
      page: 1,
      page_size: 100,
      total_results: 3,
      total_pages: 1,
    });
    expect(folders['0']).toEqual({ folder_id: alpha.folder_id, folder_name: 'Alpha', description: 'first', parent_id: '0' });
  });

  it('pages, and answers with and without a trailing slash', async () => {
    const api = await freshOrg();
    for (const name of ['A', 'B', 'C']) await create(api, { name });
    const page2 = await list(api, '/?page=2&page_size=2');
    expect(page2).toMatchObject({ '0': { folder_name: 'C' }, page: 2, page_size: 2, total_results: 3, total_pages: 2 });
    expect(page2['1']).toBeUndefined();
  });

  it('nests sub-folders under _embedded with structure=1 and lists only top-level folders', async () => {
    const api = await freshOrg();
    const parent = await create(api, { name: 'Parent', description: 'has children' });
    const lonely = await create(api, { name: 'Solo' });
    const kids = [
      await create(api, { name: 'Kid B', parent_id: parent.folder_id }),
      await create(api, { name: 'Kid A', parent_id: parent.folder_id }),
    ];
    const node = (f: { folder_id: string; folder_name: string; description: string }) => ({
      id: f.folder_id,
      folder_id: f.folder_id,
      folder_name: f.folder_name,
      description: f.description,
      _links: { self: { href: `/rest/1/folders/${f.folder_id}` } },
    });
    expect(await list(api, '?structure=1')).toEqual({
      '0': { ...node(parent), _embedded: { folders: [node(kids[1]!), node(kids[0]!)] } },
      '1': node(lonely),
      page: 1,
      page_size: 100,
      total_results: 2,
      total_pages: 1,
    });
  });

  it("never shows another organisation's folders", async () => {
    const foreign = await create(other, { name: uniqueName('Foreign') });
    const names = Object.values(await list(vendor, '?page_size=500')).map((f) => (f as { folder_name?: string }).folder_name);
    expect(names).not.toContain(foreign.folder_name);
  });

  it.each(['page_size=abc', 'page_size=0', 'page_size=501', 'page=0', 'page=x', 'structure=maybe'])(
    'answers 400, not 500, to %s',
    async (query) => {
      const reply = await rep.get(`/rest/1/folders?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.debug_codes[0].field).toBe(query.split('=')[0]);
    },
  );

  it('accepts page_size=500', async () => {
    expect((await list(rep, '?page_size=500')).page_size).toBe(500);
  });
});
