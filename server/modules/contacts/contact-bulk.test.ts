import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { recordRows } from './contact-records.repository.js';
import {
  addTagToContacts,
  type BulkChunk,
  moveContactsToFolder,
  removeTagFromContacts,
  transferContacts,
} from './contact-rows.repository.js';
import { presentContacts } from './contacts.service.js';

/*
 * The set-based writers that bulk jobs will call, on the store directly. After each: the records the app serves
 * (from its record cache) equal fresh ones, list totals (kept counts) equal real counts, and exactly the contacts
 * that changed have a raised version, an audit record and an activity.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
const folders: Record<string, number> = {};
const ids: number[] = [];
let elsewhere: number;

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  const vendor = api(team.vendor);
  for (const name of ['A', 'B']) folders[name] = Number((await vendor.post('/rest/1/folders', { name })).body.folders['0'].folder_id);
  const create = async (caller: Caller, body: object) =>
    Number((await caller.post('/rest/1/contacts', body)).body.contacts.contacts.contact_user_id);
  for (const [i, folder] of [folders.A, folders.A, null, folders.B].entries()) {
    ids.push(await create(api(team.rep), { first_name: `Bulk ${i}`, category_id: folder ?? 0, tags: i === 1 ? ['Bulk'] : [] }));
  }
  await api(team.rep).delete(`/rest/1/contacts/${ids[3]}`);
  await create(api(team.teammate), { first_name: 'Teammate', category_id: folders.A });
  elsewhere = await create(api(team.otherVendor), { first_name: 'Elsewhere', tags: ['Bulk'] });
});
afterAll(() => server?.close());

const db = () => server.ctx.store.db;
const chunk = (contactIds: number[]): BulkChunk => ({
  orgId: team.vendor.org_id,
  contactIds,
  actorId: team.vendor.id,
  at: '2030-01-01 00:00:00',
});
const versions = async () => new Map((await db().selectFrom('contacts').select(['id', 'version']).execute()).map((r) => [r.id, r.version]));
const bulkAudit = async (dataType: string) =>
  await db()
    .selectFrom('contact_audit')
    .select(['contact_id', 'old_value', 'new_value'])
    .where('data_type', '=', dataType)
    .where('created_at', '=', '2030-01-01 00:00:00')
    .orderBy('contact_id')
    .execute();
const bulkActivities = async (type: number) =>
  (
    await db()
      .selectFrom('contact_activities')
      .select('contact_id')
      .where('activity_type', '=', type)
      .where('created_at', '=', '2030-01-01 00:00:00')
      .execute()
  )
    .map((a) => a.contact_id)
    .sort((a, b) => a - b);
const ALL = '/rest/1/contacts?page_size=100&include_trashed=1&include_archived=1';

/** Reads every member's list (filling the app's record cache), so a change that raises no version would show stale. */
async function readAll() {
  for (const member of [team.vendor, team.rep, team.teammate, team.otherVendor]) expect((await api(member).get(ALL)).status).toBe(200);
}

async function expectInvariants() {
  for (const member of [team.vendor, team.manager, team.rep, team.teammate, team.otherVendor]) {
    const listed: any[] = (await api(member).get(ALL)).body.contacts.contacts;
    for (const record of listed) {
      const [fresh] = await presentContacts(db(), await recordRows(db(), [Number(record.contact_user_id)]));
      expect(record, `contact ${record.contact_user_id}`).toEqual(JSON.parse(JSON.stringify(fresh)));
    }
    for (const folder of ['', ...Object.values(folders)]) {
      for (const flags of ['', '&include_trashed=1']) {
        const query = `/rest/1/contacts?page_size=1${folder && `&category_id=${folder}`}${flags}`;
        const kept = (await api(member).get(query)).body.contacts.total_results;
        expect(kept, `${member.username} ${query}`).toBe(
          (await api(member).get(`${query}&created_to=2999-12-31`)).body.contacts.total_results,
        );
      }
    }
  }
}

/** Runs a bulk write; answers what it answered and the ids whose version it raised. */
async function bulk(write: Parameters<typeof server.ctx.store.write<number>>[0]) {
  await readAll();
  const before = await versions();
  const changed = await server.ctx.store.write(write);
  const after = await versions();
  return {
    changed,
    raised: [...after]
      .filter(([id, v]) => v !== before.get(id))
      .map(([id]) => id)
      .sort((a, b) => a - b),
  };
}

describe('set-based bulk writers', () => {
  it('adds a tag to the contacts of a chunk that lack it, and removes it from those that hold it', async () => {
    const tag = await db()
      .selectFrom('tags')
      .select(['id', 'title'])
      .where('org_id', '=', team.vendor.org_id)
      .where('title', '=', 'Bulk')
      .executeTakeFirstOrThrow();
    const all = [...ids, elsewhere];
    const added = await bulk((tx) => addTagToContacts(tx, { ...chunk(all), tag }));
    expect(added).toEqual({ changed: 3, raised: [ids[0]!, ids[2]!, ids[3]!] });
    expect((await bulkAudit('tag_added')).map((a) => [a.contact_id, a.new_value])).toEqual([
      [ids[0], 'Bulk'],
      [ids[2], 'Bulk'],
      [ids[3], 'Bulk'],
    ]);
    expect(await bulkActivities(10)).toEqual([ids[0], ids[2], ids[3]]);
    await expectInvariants();
    expect((await api(team.rep).get(`/rest/1/contacts?tag_id=${tag.id}&include_trashed=1`)).body.contacts.total_results).toBe(4);

    const removed = await bulk((tx) => removeTagFromContacts(tx, { ...chunk([ids[0]!, ids[1]!, elsewhere]), tag }));
    expect(removed).toEqual({ changed: 2, raised: [ids[0]!, ids[1]!] });
    expect((await bulkAudit('tag_removed')).map((a) => [a.contact_id, a.old_value])).toEqual([
      [ids[0], 'Bulk'],
      [ids[1], 'Bulk'],
    ]);
    await expectInvariants();
    expect((await api(team.otherVendor).get(`/rest/1/contacts/${elsewhere}`)).body.contacts.contacts[0].tags).toEqual([
      { id: expect.any(Number), title: 'Bulk' },
    ]);
    expect(await server.ctx.store.write((tx) => addTagToContacts(tx, { ...chunk([]), tag }))).toBe(0);
  });

  it('moves the contacts of a chunk to a folder or to none, keeping the counts', async () => {
    const moved = await bulk((tx) => moveContactsToFolder(tx, { ...chunk([...ids, elsewhere]), folderId: folders.B! }));
    expect(moved).toEqual({ changed: 3, raised: [ids[0]!, ids[1]!, ids[2]!] });
    expect((await bulkAudit('moved')).map((a) => [a.contact_id, a.old_value, a.new_value])).toEqual([
      [ids[0], String(folders.A), String(folders.B)],
      [ids[1], String(folders.A), String(folders.B)],
      [ids[2], '0', String(folders.B)],
    ]);
    expect(await bulkActivities(3)).toEqual([ids[0], ids[1], ids[2]]);
    await expectInvariants();
    const out = await bulk((tx) => moveContactsToFolder(tx, { ...chunk([ids[0]!, ids[3]!]), folderId: null }));
    expect(out).toEqual({ changed: 2, raised: [ids[0]!, ids[3]!] });
    await expectInvariants();
    expect((await api(team.rep).get(`/rest/1/contacts/${ids[0]}`)).body.contacts.contacts[0].category_id).toBe('0');
  });

  it('transfers the contacts of a chunk to a member, keeping the counts', async () => {
    const moved = await bulk((tx) => transferContacts(tx, { ...chunk([ids[0]!, ids[1]!, ids[3]!, elsewhere]), toId: team.teammate.id }));
    expect(moved).toEqual({ changed: 3, raised: [ids[0]!, ids[1]!, ids[3]!] });
    expect((await bulkAudit('transferred')).map((a) => [a.contact_id, a.old_value, a.new_value])).toEqual(
      [ids[0], ids[1], ids[3]].map((id) => [id, String(team.rep.id), String(team.teammate.id)]),
    );
    expect(await bulkActivities(4)).toEqual([ids[0], ids[1], ids[3]]);
    await expectInvariants();
    expect((await api(team.rep).get(`/rest/1/contacts/${ids[0]}`)).status).toBe(404);
    expect((await api(team.teammate).get(`/rest/1/contacts/${ids[0]}`)).body.contacts.contacts[0].owner_id).toBe(String(team.teammate.id));
    expect((await bulk((tx) => transferContacts(tx, { ...chunk([ids[0]!]), toId: team.teammate.id }))).changed).toBe(0);
  });
});
