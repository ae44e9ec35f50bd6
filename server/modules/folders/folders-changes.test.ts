import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../lib/http-errors.js';
import type { Member } from '../../db/schema.js';
import { serverWithTeam, type Caller, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;
let vendor: Caller;
let manager: Caller;
let other: Caller;

beforeAll(async () => {
  let api: (member: Member) => Caller;
  ({ server, team, api } = await serverWithTeam());
  [vendor, manager, other] = [api(team.vendor), api(team.manager), api(team.otherVendor)];
});
afterAll(() => server?.close());

let n = 0;
type Folder = { folder_id: string; folder_name: string; description: string; parent_id: string };

async function create(api: Caller, body: Record<string, unknown> = {}): Promise<Folder> {
  const reply = await api.post('/rest/1/folders', { name: `Folder ${++n}`, ...body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.folders['0'];
}

const LONG_AGO = '2001-01-01 00:00:00';

/** Contacts go straight into the store: only their folder matters here. */
async function contactIn(folderId: string | null, owner = team.rep) {
  const row = await server.ctx.store.write((tx) =>
    tx
      .insertInto('contacts')
      .values({
        org_id: owner.org_id,
        owner_id: owner.id,
        folder_id: folderId === null ? null : Number(folderId),
        created_at: LONG_AGO,
        updated_at: LONG_AGO,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

const contactRow = (id: number) =>
  server.ctx.store.db.selectFrom('contacts').select(['folder_id', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
const auditOf = (id: number) => server.ctx.store.db.selectFrom('contact_audit').selectAll().where('contact_id', '=', id).execute();
const folderExists = async (id: string) =>
  !!(await server.ctx.store.db.selectFrom('folders').select('id').where('id', '=', Number(id)).executeTakeFirst());

describe('PUT /rest/1/folders/{folder_id}', () => {
  it('lets the vendor rename, describe and move a folder, and the change reads back', async () => {
    const folder = await create(manager);
    const parent = await create(vendor);
    const reply = await vendor.put(`/rest/1/folders/${folder.folder_id}`, {
      name: 'Renamed',
      description: 'new',
      parent_id: parent.folder_id,
    });
    expect(reply.status).toBe(200);
    const expected = { folder_id: folder.folder_id, folder_name: 'Renamed', description: 'new', parent_id: parent.folder_id };
    expect(reply.body).toEqual({ http_status: 200, status: 'success', folders: { '0': expected } });
    const listed = (await vendor.get('/rest/1/folders?page_size=500')).body.folders;
    expect(Object.values(listed)).toContainEqual(expected);
  });

  it('changes only the fields given, takes a form body, and moves back to the top level with parent_id 0', async () => {
    const parent = await create(vendor);
    const folder = await create(vendor, { description: 'keep me', parent_id: parent.folder_id });
    const reply = await vendor.form('PUT', `/rest/1/folders/${folder.folder_id}/`, 'parent_id=0');
    expect(reply.status).toBe(200);
    expect(reply.body.folders['0']).toEqual({ ...folder, parent_id: '0' });
  });

  it.each([
    ['a manager', () => manager],
    ['a rep', () => server.as(server.tokenOf(team.rep))],
  ])('refuses %s with 403 (vendor only) and changes nothing', async (_label, api) => {
    const folder = await create(vendor);
    const reply = await api().put(`/rest/1/folders/${folder.folder_id}`, { name: 'Hijacked' });
    expect(reply.status).toBe(403);
    expect(reply.body.debug_codes[0].code).toBe(Codes.vendorOnly);
    expect(await folderExists(folder.folder_id)).toBe(true);
    const names = Object.values((await vendor.get('/rest/1/folders?page_size=500')).body.folders).map((f) => (f as Folder).folder_name);
    expect(names).toContain(folder.folder_name);
    expect(names).not.toContain('Hijacked');
  });

  it('refuses a folder as its own parent', async () => {
    const folder = await create(vendor);
    const reply = await vendor.put(`/rest/1/folders/${folder.folder_id}`, { parent_id: folder.folder_id });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.invalidField, field: 'parent_id' });
  });

  it('refuses to make a folder with sub-folders a sub-folder', async () => {
    const folder = await create(vendor);
    await create(vendor, { parent_id: folder.folder_id });
    const target = await create(vendor);
    const reply = await vendor.put(`/rest/1/folders/${folder.folder_id}`, { parent_id: target.folder_id });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.invalidField, field: 'parent_id' });
  });

  it.each([
    ['an unknown parent', async () => '999999', Codes.unknownReference],
    [
      'a sub-folder as parent',
      async () => (await create(vendor, { parent_id: (await create(vendor)).folder_id })).folder_id,
      Codes.invalidField,
    ],
    ["another organisation's folder as parent", async () => (await create(other)).folder_id, Codes.unknownReference],
  ])('refuses %s', async (_label, parentId, code) => {
    const folder = await create(vendor);
    const reply = await vendor.put(`/rest/1/folders/${folder.folder_id}`, { parent_id: await parentId() });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code, field: 'parent_id' });
  });

  it('refuses a name a sibling has (case-insensitively) with 409, but keeps its own name in another case', async () => {
    const taken = await create(vendor);
    const folder = await create(vendor);
    expect((await vendor.put(`/rest/1/folders/${folder.folder_id}`, { name: taken.folder_name.toLowerCase() })).status).toBe(409);
    const recased = await vendor.put(`/rest/1/folders/${folder.folder_id}`, { name: folder.folder_name.toUpperCase() });
    expect(recased.status).toBe(200);
  });

  it.each([
    ['blank name', { name: ' ' }, 'name'],
    ['description too long', { description: 'x'.repeat(1001) }, 'description'],
    ['parent_id junk', { parent_id: 'top' }, 'parent_id'],
  ])('refuses a %s with 400 naming the field', async (_label, body, field) => {
    const folder = await create(vendor);
    const reply = await vendor.put(`/rest/1/folders/${folder.folder_id}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.invalidField, field });
  });

  it("answers 404 for an unknown folder and for another organisation's folder", async () => {
    const foreign = await create(other);
    for (const id of ['999999', foreign.folder_id]) {
      const reply = await vendor.put(`/rest/1/folders/${id}`, { name: 'X' });
      expect(reply.status).toBe(404);
      expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.notFound, reason: `There is no folder ${id}.` });
    }
  });

  it.each(['abc', '0', '-1', '1.5'])('answers 400 to the path id %s', async (id) => {
    const reply = await vendor.put(`/rest/1/folders/${id}`, { name: 'X' });
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe('folder_id');
  });
});

describe('DELETE /rest/1/folders/{folder_id}', () => {
  it('deletes the folder and its sub-folders and moves their contacts, with an audit row each', async () => {
    const folder = await create(vendor);
    const sub = await create(vendor, { parent_id: folder.folder_id });
    const target = await create(vendor);
    const [inFolder, inSub, elsewhere, loose] = [
      await contactIn(folder.folder_id),
      await contactIn(sub.folder_id),
      await contactIn(target.folder_id),
      await contactIn(null),
    ];
    const reply = await vendor.delete(`/rest/1/folders/${folder.folder_id}?move_folder_id=${target.folder_id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect([await folderExists(folder.folder_id), await folderExists(sub.folder_id), await folderExists(target.folder_id)]).toEqual([
      false,
      false,
      true,
    ]);
    for (const [id, from] of [
      [inFolder, folder],
      [inSub, sub],
    ] as const) {
      const row = await contactRow(id);
      expect(row.folder_id).toBe(Number(target.folder_id));
      expect(row.updated_at > LONG_AGO).toBe(true);
      expect(await auditOf(id)).toEqual([
        expect.objectContaining({
          member_id: team.vendor.id,
          action: 'update',
          data_type: 'moved',
          old_value: from.folder_id,
          new_value: target.folder_id,
        }),
      ]);
    }
    for (const id of [elsewhere, loose]) {
      expect(await contactRow(id)).toEqual({ folder_id: id === loose ? null : Number(target.folder_id), updated_at: LONG_AGO });
      expect(await auditOf(id)).toEqual([]);
    }
  });

  it('moves the contacts to no folder without move_folder_id (or with 0)', async () => {
    for (const query of ['', '?move_folder_id=0']) {
      const folder = await create(vendor);
      const contact = await contactIn(folder.folder_id);
      expect((await vendor.delete(`/rest/1/folders/${folder.folder_id}${query}`)).status).toBe(204);
      expect((await contactRow(contact)).folder_id).toBeNull();
      expect(await auditOf(contact)).toEqual([
        expect.objectContaining({ data_type: 'moved', old_value: folder.folder_id, new_value: '0' }),
      ]);
      const listed = (await vendor.get('/rest/1/folders?page_size=500')).body.folders;
      expect(Object.values(listed).map((f) => (f as Folder).folder_id)).not.toContain(folder.folder_id);
    }
  });

  it.each([
    ['the folder itself', (f: Folder) => f.folder_id, Codes.invalidField],
    ['one of its sub-folders', (_f: Folder, sub: Folder) => sub.folder_id, Codes.invalidField],
    ['an unknown folder', () => '999999', Codes.unknownReference],
    ['junk', () => 'elsewhere', Codes.invalidField],
  ])('refuses move_folder_id pointing at %s and deletes nothing', async (_label, pick, code) => {
    const folder = await create(vendor);
    const sub = await create(vendor, { parent_id: folder.folder_id });
    const contact = await contactIn(sub.folder_id);
    const reply = await vendor.delete(`/rest/1/folders/${folder.folder_id}?move_folder_id=${pick(folder, sub)}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code, field: 'move_folder_id' });
    expect([await folderExists(folder.folder_id), await folderExists(sub.folder_id)]).toEqual([true, true]);
    expect((await contactRow(contact)).folder_id).toBe(Number(sub.folder_id));
  });

  it("refuses another organisation's folder as move_folder_id", async () => {
    const folder = await create(vendor);
    const foreign = await create(other);
    const reply = await vendor.delete(`/rest/1/folders/${folder.folder_id}?move_folder_id=${foreign.folder_id}`);
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0]).toMatchObject({ code: Codes.unknownReference, field: 'move_folder_id' });
  });

  it('refuses a non-vendor with 403 and keeps the folder and its contacts', async () => {
    const folder = await create(manager);
    const contact = await contactIn(folder.folder_id);
    const reply = await manager.delete(`/rest/1/folders/${folder.folder_id}`);
    expect(reply.status).toBe(403);
    expect(reply.body.debug_codes[0].code).toBe(Codes.vendorOnly);
    expect(await folderExists(folder.folder_id)).toBe(true);
    expect((await contactRow(contact)).folder_id).toBe(Number(folder.folder_id));
  });

  it("answers 404 for an unknown folder and for another organisation's folder, which stays", async () => {
    const foreign = await create(other);
    for (const id of ['999999', foreign.folder_id]) {
      const reply = await vendor.delete(`/rest/1/folders/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.body.debug_codes[0].reason).toBe(`There is no folder ${id}.`);
    }
    expect(await folderExists(foreign.folder_id)).toBe(true);
  });

  it('answers 400 to a path id that is not a positive integer', async () => {
    const reply = await vendor.delete('/rest/1/folders/abc');
    expect(reply.status).toBe(400);
    expect(reply.body.debug_codes[0].field).toBe('folder_id');
  });
});
