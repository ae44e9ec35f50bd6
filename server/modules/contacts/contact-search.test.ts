import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { now } from '../../lib/time.js';
import { FEW_MATCHES, SEARCH_COUNT_LIMIT } from './contact-list.repository.js';
import { indexNewContact, insertContact, transferContacts, updateContactRow } from './contact-rows.repository.js';
import { reindexContacts, searchMatch, settleContactSearch } from './contact-search.repository.js';
import { searchOf } from './search/search-index.js';
import { wordsQuery } from './contact-words.js';
import { TEST_PASSWORD } from '../../test/harness.js';

/* The contacts list's `search` (extension): any part of a name, an e-mail address or a run of a phone's digits. */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;
let rep: Caller;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ server, team, api } = await serverWithTeam());
  rep = api(team.rep);
  const create = async (key: string, body: object) =>
    (ids[key] = (await rep.post('/rest/1/contacts', { ...body, allow_duplicates: 1 })).body.contacts.contacts.contact_user_id);
  await create('ethan', { first_name: 'Ethan', last_name: 'Murphy', email: 'ethan.murphy@acme-widgets.example', phone: '(214) 999-7486' });
  await create('olivia', {
    first_name: 'Olivia',
    last_name: 'Ethans',
    email: 'olivia@globex.example',
    phone: '3125550142',
    additional_phone: [{ number: '6465551234' }],
  });
  await create('mary', { first_name: 'Mary', last_name: 'Kim', email: 'mk@initech.example', phone: '4155550199' });
  await api(team.teammate).post('/rest/1/contacts', {
    first_name: 'Ethan',
    last_name: 'Murphy',
    email: 'other@acme-widgets.example',
    phone: '2149997486',
  });
});
afterAll(() => server?.close());

const found = async (search: string, who: Caller = rep) =>
  (await who.get(`/rest/1/contacts?search=${encodeURIComponent(search)}&page_size=100`)).body.contacts.contacts
    .map((c: { contact_user_id: string }) => c.contact_user_id)
    .sort();
const idsOf = (...keys: string[]) => keys.map((k) => ids[k]).sort();

describe('search', () => {
  it.each([
    ['a first name', 'ethan', ['ethan', 'olivia']],
    ['a part of a last name', 'urph', ['ethan']],
    ['the full name in either order', 'murphy ethan', ['ethan']],
    ['the full name', 'Ethan Murphy', ['ethan']],
    ['a part of an e-mail address', 'ethan.mur', ['ethan']],
    ['an e-mail domain', 'acme-widgets.example', ['ethan']],
    ['a run of phone digits with punctuation', '999-7486', ['ethan']],
    ['a whole number with its country code', '12149997486', ['ethan']],
    ['a formatted number', '(214) 999-7486', ['ethan']],
    ['a run of an additional phone', '555123', ['olivia']],
    ['seven digits from the middle of an additional phone', '465-5512', ['olivia']],
    ['a long run whose first seven digits match but the rest does not', '21499974861', []],
    ['eight digits that run across two numbers', '01426465', []],
    ['three digits', '199', ['mary']],
    ['a two-letter prefix', 'ma', ['mary']],
    ['a name and a number together', 'kim 4155', ['mary']],
    ['nothing of anyone', 'zebra', []],
  ])('finds by %s (%s)', async (_label, search, expected) => {
    expect(await found(search)).toEqual(idsOf(...(expected as string[])));
  });

  it("never finds another member's contacts, and a manager finds the team's", async () => {
    expect(await found('acme-widgets')).toEqual(idsOf('ethan'));
    expect((await found('acme-widgets', api(team.manager))).length).toBe(2);
  });

  it('indexes an added phone or e-mail, as indexing the contact again from its rows gives', async () => {
    const id = Number(ids.olivia);
    await rep.post(`/rest/1/contacts/${id}/phones`, { phone_number: '7185550777', type: 2 });
    await rep.post(`/rest/1/contacts/${id}/emails`, { email_address: 'Olivia.Second@Umbrella.example' });
    expect(await found('555-0777')).toEqual(idsOf('olivia'));
    expect(await found('umbrella')).toEqual(idsOf('olivia'));
    const { db } = server.ctx.store;
    const indexed = async () =>
      (await db.selectFrom('contact_search_terms').select('term').where('contact_id', '=', id).orderBy('term').execute()).map(
        (r) => r.term,
      );
    const added = await indexed();
    expect(added).toEqual(expect.arrayContaining(['7185550777', 'olivia.second@umbrella.example', '3125550142']));
    await server.ctx.store.write((tx) => reindexContacts(tx, [id], 'all'));
    expect(await indexed()).toEqual(added);
  });

  it('follows changes: a changed number, a new e-mail, a trashed and a deleted contact', async () => {
    await rep.put(`/rest/1/contacts/${ids.mary}`, { phone: '4155550123', email: 'mary.kim@hooli.example' });
    expect(await found('0199')).toEqual([]);
    expect(await found('555-0199')).toEqual([]);
    expect(await found('555-0123')).toEqual(idsOf('mary'));
    expect(await found('hooli')).toEqual(idsOf('mary'));
    await rep.post(`/rest/1/contacts/${ids.mary}/emails`, { email_address: 'second@piedpiper.example', is_primary: false });
    expect(await found('piedpiper')).toEqual(idsOf('mary'));
    await rep.delete(`/rest/1/contacts/${ids.mary}`);
    expect(await found('hooli')).toEqual([]);
    await rep.delete(`/rest/1/contacts/${ids.mary}?permanent=1`);
    const { db } = server.ctx.store;
    expect(await searchOf(db).entriesOf(db, Number(ids.mary))).toEqual(Object.fromEntries(searchOf(db).indexes.map((index) => [index, 0])));
  });

  it('counts what it finds, and pages through it newest first, or in the order asked', async () => {
    const pageOf = async (query: string) => {
      const reply = await rep.get(`/rest/1/contacts?search=ethan&page_size=1&${query}`);
      return { ...reply.body.contacts, ids: reply.body.contacts.contacts.map((c: { contact_user_id: string }) => c.contact_user_id) };
    };
    expect(await pageOf('page=1')).toMatchObject({ total_results: 2, total_pages: 2, page: 1, ids: [ids.olivia] });
    expect(await pageOf('page=2')).toMatchObject({ total_results: 2, total_pages: 2, page: 2, ids: [ids.ethan] });
    expect(await pageOf('page=1&sort_order=ASC')).toMatchObject({ total_results: 2, ids: [ids.ethan] });
    expect(await pageOf('page=1&sort_by=last_name&sort_order=DESC')).toMatchObject({ total_results: 2, ids: [ids.ethan] });
    expect(await pageOf('page=3')).toMatchObject({ total_results: 2, ids: [] });
  });

  it(`answers the same whether a search matches few contacts (up to ${FEW_MATCHES}, read in index order) or many`, async () => {
    const fill = (word: string, others: number) =>
      server.ctx.store.write(async (tx) => {
        const at = now();
        for (let i = 0; i < others + 3; i++) {
          const owner = i < others ? team.teammate : team.rep;
          const contact = await insertContact(tx, {
            org_id: owner.org_id,
            owner_id: owner.id,
            first_name: word,
            last_name: `M${i}`,
            created_at: at,
            updated_at: at,
          });
          await indexNewContact(tx, contact);
        }
      });
    await fill('Fewish', FEW_MATCHES - 10);
    await fill('Manyish', FEW_MATCHES + 10);
    for (const [word, others] of [
      ['fewish', FEW_MATCHES - 10],
      ['manyish', FEW_MATCHES + 10],
    ] as const) {
      const mine = (await rep.get(`/rest/1/contacts?search=${word}&page_size=2`)).body.contacts;
      expect(mine).toMatchObject({ total_results: 3, total_pages: 2 });
      expect(mine.contacts.map((c: { last_name: string }) => c.last_name)).toEqual([`M${others + 2}`, `M${others + 1}`]);
      const byName = (await rep.get(`/rest/1/contacts?search=${word}&page_size=2&page=2&sort_by=last_name&sort_order=ASC`)).body.contacts;
      expect(byName.contacts.map((c: { last_name: string }) => c.last_name)).toEqual([`M${others + 2}`]);
      expect((await api(team.teammate).get(`/rest/1/contacts?search=${word}&page_size=1`)).body.contacts.total_results).toBe(others);
    }
  }, 60_000);

  it(`counts a search's matches up to ${SEARCH_COUNT_LIMIT.toLocaleString('en-US')}, and pages on past them`, async () => {
    const many = SEARCH_COUNT_LIMIT + 5;
    await server.ctx.store.write(async (tx) => {
      const at = now();
      for (let i = 0; i < many; i++) {
        const contact = await insertContact(tx, {
          org_id: team.rep.org_id,
          owner_id: team.rep.id,
          first_name: 'Plentiful',
          last_name: `N${i}`,
          created_at: at,
          updated_at: at,
        });
        await indexNewContact(tx, contact);
      }
    });
    const first = await rep.get('/rest/1/contacts?search=plentiful&page_size=100');
    expect(first.body.contacts).toMatchObject({ total_results: SEARCH_COUNT_LIMIT, total_pages: SEARCH_COUNT_LIMIT / 100 });
    expect(first.body.contacts.contacts[0].last_name).toBe(`N${many - 1}`);
    const past = await rep.get(`/rest/1/contacts?search=plentiful&page_size=100&page=${SEARCH_COUNT_LIMIT / 100 + 1}`);
    expect(past.body.contacts.contacts.map((c: { last_name: string }) => c.last_name)).toEqual(['N4', 'N3', 'N2', 'N1', 'N0']);
    // Another member's view of the same search counts only its own matches.
    expect((await api(team.teammate).get('/rest/1/contacts?search=plentiful')).body.contacts.total_results).toBe(0);
  }, 60_000);
});

describe('the word index', () => {
  const WORDS = [
    'zanzibar',
    'anzi',
    'quill',
    'quill zanzibar',
    '555-0188',
    '0188',
    '(617) 555-0188',
    'quill@zanzibar',
    'bar.exam',
    'zanzibar o.ther',
  ];
  type Row = { contact_user_id: string; owner_id: string };
  const search = async (who: Caller, query: string) => {
    const reply = await who.get(`/rest/1/contacts?search=${encodeURIComponent(query)}&page_size=100`);
    expect(reply.status, reply.text).toBe(200);
    return { total: reply.body.contacts.total_results as number, rows: reply.body.contacts.contacts as Row[] };
  };
  const idsOfRows = (rows: Row[]) => rows.map((r) => r.contact_user_id).sort();
  /**
   * The contact's row in the word index, where the store keeps one (SQLite). PostgreSQL keeps no word index: its trigram
   * row holds every contact whatever its state, so there the counterpart is that the row stays (and `agree` shows the
   * answers right).
   */
  const wordRow = async (id: number, expected: 0 | 1) => {
    const { db } = server.ctx.store;
    const entries = await searchOf(db).entriesOf(db, id);
    expect(entries).toEqual(searchOf(db).indexes.includes('words') ? { trigrams: 1, words: expected } : { trigrams: 1 });
  };

  /**
   * The reps' and the manager's searches of words go to the word index; the vendor's (the whole organisation) to the
   * trigram index. After each change both must tell the same: the vendor's matches of a rep's (the team's) contacts
   * are the rep's (the manager's) matches, and the totals agree.
   */
  async function agree(when: string) {
    const owners = { rep: [team.rep.id], teammate: [team.teammate.id], manager: [team.manager.id, team.rep.id, team.teammate.id] };
    for (const query of WORDS) {
      expect(wordsQuery(query, owners.rep), query).toBeDefined();
      const everyone = (await search(api(team.vendor), query)).rows;
      for (const [who, ids] of Object.entries(owners)) {
        const expected = everyone.filter((r) => ids.includes(Number(r.owner_id)));
        const got = await search(api(team[who as keyof typeof owners]), query);
        expect(idsOfRows(got.rows), `${when}: ${who} searching ${query}`).toEqual(idsOfRows(expected));
        expect(got.total, `${when}: ${who}'s total for ${query}`).toBe(expected.length);
      }
    }
  }

  it('answers as the trigram index does through transfers, the trash, the archive and a member deleted', async () => {
    const create = async (who: Member, body: object) =>
      Number((await api(who).post('/rest/1/contacts', { ...body, allow_duplicates: 1 })).body.contacts.contacts.contact_user_id);
    const mine = await create(team.rep, { first_name: 'Zanzibar', last_name: 'Quill', phone: '6175550188' });
    const theirs = await create(team.teammate, { first_name: 'Zanzibar', last_name: 'Other', email: 'quill@zanzibar.example' });
    await create(team.outsider, { first_name: 'Quill', last_name: 'Zanzibarson', phone: '6175550188' });
    await agree('created');
    expect((await search(api(team.rep), 'zanzibar')).total).toBe(1);

    expect((await api(team.manager).put(`/rest/1/contacts/${theirs}`, { transfer_to_user_id: team.rep.id })).status).toBe(200);
    await agree('transferred to the rep');
    expect((await search(api(team.rep), 'zanzibar')).total).toBe(2);

    expect((await api(team.rep).delete(`/rest/1/contacts/${mine}`)).status).toBeLessThan(300);
    await wordRow(mine, 0);
    await agree('trashed');
    expect((await api(team.rep).post(`/rest/1/contacts/${mine}/restore`, {})).status).toBeLessThan(300);
    await wordRow(mine, 1);
    await agree('restored');

    const { db } = server.ctx.store;
    const row = () => db.selectFrom('contacts').selectAll().where('id', '=', mine).executeTakeFirstOrThrow();
    await server.ctx.store.write(async (tx) => updateContactRow(tx, await row(), { changes: { archived: 1 }, at: now() }));
    await wordRow(mine, 0);
    await agree('archived');
    await server.ctx.store.write(async (tx) => updateContactRow(tx, await row(), { changes: { archived: 0 }, at: now() }));
    await agree('out of the archive');

    // A bulk transfer (a job's chunk) of the rep's two to the teammate: the rep finds none, the manager both.
    await server.ctx.store.write((tx) =>
      transferContacts(tx, {
        orgId: team.rep.org_id,
        contactIds: [mine, theirs],
        actorId: team.vendor.id,
        at: now(),
        toId: team.teammate.id,
      }),
    );
    await agree('bulk transferred');
    expect((await search(api(team.rep), 'zanzibar')).total).toBe(0);

    // A member deleted: their contacts go to the rep.
    const leaving = await api(team.vendor).post('/rest/1/members', {
      username: `leaving${process.pid}`,
      password: TEST_PASSWORD,
      first_name: 'Leaving',
      email: 'leaving@example.com',
      billing_item_id: 1,
      billing_group_id: 'g',
      subgroup_id: 's',
      role: 'member',
      manager_id: team.manager.id,
    });
    expect(leaving.status, leaving.text).toBe(201);
    const leaver = await db
      .selectFrom('members')
      .selectAll()
      .where('id', '=', Number(leaving.body.members.members.user_id))
      .executeTakeFirstOrThrow();
    const left = await create(leaver, { first_name: 'Zanzibar', last_name: 'Leftover', phone: '6175550188' });
    expect((await api(team.vendor).delete(`/rest/1/members/${leaver.id}?move_contacts_to=${team.rep.id}`)).status).toBe(204);
    await agree('a member deleted');
    expect(idsOfRows((await search(api(team.rep), '555-0188')).rows)).toEqual([String(left)]);

    // A phone and an address added (only their terms are added; the full-text rows are written again).
    expect((await api(team.rep).post(`/rest/1/contacts/${left}/phones`, { phone_number: '6175550199', type: 2 })).status).toBe(200);
    expect((await api(team.rep).post(`/rest/1/contacts/${left}/emails`, { email_address: 'Zanzibar.Added@Quill.example' })).status).toBe(
      202,
    );
    for (const query of ['555-0199', '0188', 'zanzibar.added@quill', 'added']) {
      expect(idsOfRows((await search(api(team.rep), query)).rows), query).toEqual([String(left)]);
    }
    await agree('a phone and an address added');
  }, 60_000);
});

describe('searchMatch', () => {
  it.each([
    ['murphy ethan', '{names emails} : "murphy" AND {names emails} : "ethan"'],
    ['(214) 999-7486', 'phones : "2149997486"'],
    ['1-214-999-7486', 'phones : "2149997486"'],
    ['o"brien', '{names emails} : "o""brien"'],
    ['al', undefined],
    ['jo smith', undefined],
  ])('turns %j into %j', (query, expected) => {
    expect(searchMatch(query)).toBe(expected);
  });
});

describe('settling the indexes after writes in bulk', () => {
  it('merges what several transactions left owing until nothing is, and every search answers as before', async () => {
    const { store } = server.ctx;
    for (let i = 0; i < 6; i++)
      await rep.post('/rest/1/contacts', { first_name: `Settle${i}`, last_name: 'Bulkload', allow_duplicates: 1 });
    const before = { name: await found('bulkload'), part: await found('urph'), number: await found('999-7486') };
    const sqlite = searchOf(store.db).store === 'sqlite';
    // Each write above committed a segment of its own to each full-text index (SQLite): a first step merges them.
    expect(await store.write((tx) => searchOf(tx).settle(tx))).toBe(sqlite);
    await settleContactSearch(store);
    expect(await store.write((tx) => searchOf(tx).settle(tx))).toBe(false);
    expect({ name: await found('bulkload'), part: await found('urph'), number: await found('999-7486') }).toEqual(before);
    expect(before.name).toHaveLength(6);
  });
});
