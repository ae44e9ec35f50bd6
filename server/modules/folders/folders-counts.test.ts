import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* GET /rest/1/folders?with_counts=1: the folder tree's counts, for the caller's scope. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;

beforeAll(async () => ({ server, team, api } = await serverWithTeam()));
afterAll(() => server?.close());

it("counts each folder's active contacts in the caller's scope, and those in no folder", async () => {
  const vendor = api(team.vendor);
  const parent = (await vendor.post('/rest/1/folders', { name: 'Parent' })).body.folders['0'].folder_id;
  const child = (await vendor.post('/rest/1/folders', { name: 'Child', parent_id: parent })).body.folders['0'].folder_id;
  for (const [who, folder] of [
    [team.rep, parent],
    [team.rep, child],
    [team.rep, child],
    [team.rep, 0],
    [team.outsider, child],
  ] as const) {
    await api(who).post('/rest/1/contacts', { first_name: 'C', category_id: folder, allow_duplicates: 1 });
  }
  const trashed = (await api(team.rep).post('/rest/1/contacts', { first_name: 'T', category_id: child })).body.contacts.contacts
    .contact_user_id;
  await api(team.rep).delete(`/rest/1/contacts/${trashed}`);
  const tree = (await api(team.rep).get('/rest/1/folders?structure=1&with_counts=1')).body.folders;
  const node = Object.values(tree).find((f: any) => f?.folder_id === parent) as any;
  expect(node.contact_count).toBe(1);
  expect(node._embedded.folders[0]).toMatchObject({ folder_id: child, contact_count: 2 });
  expect(tree.unfiled_count).toBe(1);
  const plain = (await api(team.vendor).get('/rest/1/folders?with_counts=1')).body.folders;
  expect((Object.values(plain).find((f: any) => f?.folder_id === child) as any).contact_count).toBe(3);
  expect((await api(team.vendor).get('/rest/1/folders')).body.folders['0']).not.toHaveProperty('contact_count');
});
