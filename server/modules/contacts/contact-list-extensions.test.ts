import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

/* List extensions for managers and the trash: owner_id, sort_by=owner, only_trashed. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let manager: Caller;
const made: Record<string, string[]> = { manager: [], rep: [], teammate: [] };

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  manager = api(team.manager);
  // Three owners in the manager's team: Mona (the manager), Rick and Tess; each with contacts made in turns.
  for (let i = 0; i < 3; i++) {
    for (const who of ['teammate', 'rep', 'manager'] as const) {
      const reply = await api(team[who]).post('/rest/1/contacts', { first_name: `${who} ${i}`, allow_duplicates: 1 });
      made[who]!.push(reply.body.contacts.contacts.contact_user_id);
    }
  }
});
afterAll(() => server?.close());

const page = async (query: string, who: Caller = manager) => (await who.get(`/rest/1/contacts?${query}`)).body.contacts;
const idsOf = (p: { contacts: { contact_user_id: string }[] }) => p.contacts.map((c) => c.contact_user_id);
const newestFirst = (ids: string[]) => [...ids].reverse();

describe('sort_by=owner', () => {
  it("orders by the owner's name, newest first within each owner, paging across owners", async () => {
    const all = [...newestFirst(made.manager!), ...newestFirst(made.rep!), ...newestFirst(made.teammate!)];
    const first = await page('sort_by=owner&sort_order=ASC&page_size=4');
    expect(first).toMatchObject({ total_results: 9, total_pages: 3 });
    expect(idsOf(first)).toEqual(all.slice(0, 4));
    expect(idsOf(await page('sort_by=owner&sort_order=ASC&page_size=4&page=2'))).toEqual(all.slice(4, 8));
    expect(idsOf(await page('sort_by=owner&sort_order=ASC&page_size=4&page=3'))).toEqual(all.slice(8));
    expect(idsOf(await page('sort_by=owner&sort_order=DESC&page_size=3'))).toEqual(newestFirst(made.teammate!));
  });

  it('sorts a filtered list by owner too', async () => {
    const found = await page('sort_by=owner&sort_order=ASC&search=rep&page_size=10');
    expect(idsOf(found)).toEqual(newestFirst(made.rep!));
    expect(found.total_results).toBe(3);
  });
});

describe('owner_id', () => {
  it("narrows the list to one member of the caller's team", async () => {
    const reply = await page(`owner_id=${team.rep.id}&page_size=10`);
    expect(idsOf(reply).sort()).toEqual([...made.rep!].sort());
    expect(reply.total_results).toBe(3);
  });

  it("refuses a member outside the caller's team with 400 naming owner_id", async () => {
    for (const [who, owner] of [
      [api(team.rep), team.teammate],
      [manager, team.outsider],
      [manager, team.otherVendor],
    ] as const) {
      const reply = await who.get(`/rest/1/contacts?owner_id=${owner.id}`);
      expect(reply.status).toBe(400);
      expect(reply.body.debug_codes[0]).toMatchObject({ code: 40004, field: 'owner_id' });
    }
  });
});

describe('only_trashed', () => {
  it('lists the trash alone, with its count', async () => {
    const rep = api(team.rep);
    await rep.delete(`/rest/1/contacts/${made.rep![0]}`);
    const trash = await page('only_trashed=1', rep);
    expect(idsOf(trash)).toEqual([made.rep![0]]);
    expect(trash.total_results).toBe(1);
    expect(idsOf(await page('page_size=10', rep))).not.toContain(made.rep![0]);
  });
});
