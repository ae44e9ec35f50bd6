import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/*
 * A list filtered by scope, folder and state takes its total from contact_counts, which every write keeps in
 * step. After each kind of write, every member's totals must equal a real count: the same list with a
 * created_to filter, which always counts the contacts themselves.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
const folders: Record<string, string> = {};
const removed = new Set<number>();

beforeAll(async () => ({ server, team, api } = await serverWithTeam()));
afterAll(() => server?.close());

const idOf = (reply: { body: any }) => reply.body.contacts.contacts.contact_user_id as string;

async function expectTotalsToMatchCounts() {
  const members = [team.vendor, team.manager, team.rep, team.teammate, team.otherVendor].filter((m) => !removed.has(m.id));
  for (const member of members) {
    for (const folder of ['', ...Object.values(folders)]) {
      for (const flags of ['', '&include_trashed=1', '&include_archived=1&include_trashed=1']) {
        const query = `/rest/1/contacts?page_size=1${folder && `&category_id=${folder}`}${flags}`;
        const kept = await api(member).get(query);
        const counted = await api(member).get(`${query}&created_to=2999-12-31`);
        expect(kept.status, kept.text).toBe(200);
        expect(kept.body.contacts.total_results, `${member.username} ${query}`).toBe(counted.body.contacts.total_results);
      }
    }
  }
}

it('keeps every list total equal to a count of the contacts through creates, moves, transfers, trash, restores, deletes and folder and member removals', async () => {
  const vendor = api(team.vendor);
  for (const name of ['A', 'B', 'C']) folders[name] = (await vendor.post('/rest/1/folders', { name })).body.folders['0'].folder_id;
  const rep = api(team.rep);
  const ids: string[] = [];
  for (const [i, folder] of [folders.A, folders.A, folders.B, undefined, folders.C].entries()) {
    ids.push(idOf(await rep.post('/rest/1/contacts', { first_name: `Rep ${i}`, email: `rep${i}@example.com`, category_id: folder })));
  }
  await api(team.teammate).post('/rest/1/contacts', { first_name: 'Tess', category_id: folders.A });
  await api(team.outsider).post('/rest/1/contacts', { first_name: 'Owen', category_id: folders.B });
  await vendor.post('/rest/1/contacts', { first_name: 'Vera', category_id: folders.C });
  await api(team.otherVendor).post('/rest/1/contacts', { first_name: 'Elsewhere' });
  expect((await rep.get('/rest/1/contacts?page_size=1')).body.contacts.total_results).toBe(5);
  await expectTotalsToMatchCounts();

  // A duplicate create updates instead of adding; a move; a transfer within the team.
  await rep.post('/rest/1/contacts', { first_name: 'Rep again', email: 'rep0@example.com', category_id: folders.B });
  await rep.put(`/rest/1/contacts/${ids[1]}`, { category_id: folders.C });
  await api(team.manager).put(`/rest/1/contacts/${ids[2]}`, { transfer_to_user_id: team.teammate.id });
  await expectTotalsToMatchCounts();

  // The trash, twice for one contact, then a permanent delete of a trashed and an active contact.
  await rep.delete(`/rest/1/contacts/${ids[3]}`);
  await rep.delete('/rest/1/contacts', { contact_user_ids: [ids[3], ids[4]] });
  await expectTotalsToMatchCounts();
  expect((await rep.post(`/rest/1/contacts/${ids[4]}/restore`)).status).toBe(200);
  await expectTotalsToMatchCounts();
  await rep.delete(`/rest/1/contacts?permanent=1`, { contact_user_ids: [ids[3], ids[0]] });
  await expectTotalsToMatchCounts();

  // A folder deleted into another, one deleted into no folder, and a member whose contacts pass to its manager.
  expect((await vendor.delete(`/rest/1/folders/${folders.A}?move_folder_id=${folders.C}`)).status).toBe(204);
  delete folders.A;
  expect((await vendor.delete(`/rest/1/folders/${folders.B}`)).status).toBe(204);
  delete folders.B;
  await expectTotalsToMatchCounts();
  expect((await vendor.delete(`/rest/1/members/${team.teammate.id}`)).status).toBe(204);
  removed.add(team.teammate.id);
  await expectTotalsToMatchCounts();
  expect((await api(team.manager).get('/rest/1/contacts?page_size=1')).body.contacts.total_results).toBe(4);
});
