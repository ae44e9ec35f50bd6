import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import type { Member } from '../../db/schema.js';
import { type Caller, serverWithTeam, type Team, type TestServer } from '../../test/harness.js';
import { actorOf, loadCatalog } from './import-job.js';
import type { Draft } from './import-row.js';
import { createFromDraft, createFromDrafts } from './import-write.js';

/*
 * An import's chunk creates its new contacts in one batch (createContactsBatch): the same rows as creating each
 * through createContactIn. The same rows go into two organisations with the same catalogue, one row by row and one as
 * a batch, and everything stored of them is compared: contacts, e-mails, phones, addresses, tags and the tag
 * catalogue, custom values and drop-down options, notes, counts, activities, audit, and what searches find.
 */
let server: TestServer;
let team: Team;
let api: (member: Member) => Caller;

beforeAll(async () => ({ server, team, api } = await serverWithTeam()), 60_000);
afterAll(() => server?.close());

const write = <T>(work: (tx: Db) => Promise<T>) => server.ctx.store.write(work);
const db = () => server.ctx.store.db;

/** The same catalogue in an organisation: a folder, a tag, a text field, a checkbox and a drop-down with an option. */
async function catalogue(member: Member) {
  const folder = (await api(member).post('/rest/1/folders', { name: 'Leads' })).body.folders['0'].folder_id as string;
  await write(async (tx) => {
    const at = '2026-01-01 00:00:00';
    await tx.insertInto('tags').values({ org_id: member.org_id, title: 'Existing', title_lc: 'existing', created_at: at }).execute();
    for (const [i, [name, type]] of (
      [
        ['Source', 1],
        ['Opted', 2],
        ['Stage', 6],
      ] as const
    ).entries())
      await tx
        .insertInto('custom_fields')
        .values({
          org_id: member.org_id,
          display_name: name,
          name_lc: name.toLowerCase(),
          type_id: type,
          display_order: i + 1,
          created_at: at,
        })
        .execute();
    const stage = await tx
      .selectFrom('custom_fields')
      .select('id')
      .where('org_id', '=', member.org_id)
      .where('name_lc', '=', 'stage')
      .executeTakeFirstOrThrow();
    await tx.insertInto('custom_field_options').values({ custom_field_id: stage.id, label: 'Hot' }).execute();
  });
  return Number(folder);
}

/** The rows of the file as drafts, in an organisation's catalogue. */
async function drafts(member: Member, folderId: number): Promise<Draft[]> {
  const catalog = await loadCatalog(db(), member.org_id);
  const field = (name: string) => [...catalog.customFields.values()].find((f) => f.display_name === name)!;
  const base = { address: {}, folderId: null, tags: [], notes: [], do_not_call: undefined, custom: [] };
  return [
    {
      ...base,
      first_name: 'Renée',
      last_name: 'Dupré',
      emails: ['Renee@Example.com', 'renee.work@example.com'],
      phones: [
        { digits: '2125550101', type: 3 },
        { digits: '2125550102', type: 2 },
        { digits: '2125550101', type: 1 },
      ],
      address: { address1: '1 Rue', city: 'Lyon', country: 'FR' },
      folderId,
      tags: ['VIP', 'vip', 'New one', 'existing'],
      notes: ['Met at the fair', 'wants a call back'],
      do_not_call: true,
      custom: [
        { field: field('Source'), value: 'Fair' },
        { field: field('Opted'), value: '1' },
        { field: field('Stage'), value: 'cold' },
      ],
    },
    { ...base, first_name: 'Jürgen', last_name: '', emails: [], phones: [{ digits: '3125550111', type: 1 }], tags: ['new ONE', 'Other'] },
    {
      ...base,
      first_name: '',
      last_name: 'Solo',
      emails: ['solo@example.com'],
      phones: [],
      custom: [{ field: field('Stage'), value: 'COLD' }],
    },
    {
      ...base,
      first_name: 'Ana',
      last_name: 'García',
      emails: ['ana@example.com'],
      phones: [{ digits: '4155550199', type: 5 }],
      address: { zip: '94107' },
      folderId,
      do_not_call: false,
      custom: [{ field: field('Stage'), value: 'hot' }],
    },
  ];
}

/** Everything stored of an organisation's contacts, without ids, times and who the organisation is (ids as positions). */
async function stored(member: Member) {
  const d = db();
  const contacts = await d.selectFrom('contacts').selectAll().where('org_id', '=', member.org_id).orderBy('id').execute();
  const ids = contacts.map((c) => c.id);
  const at = (id: number) => ids.indexOf(id);
  const of = <T extends { contact_id: number }>(rows: T[]) =>
    rows.map(({ contact_id, ...rest }) => {
      const kept: Record<string, unknown> = { contact: at(contact_id) };
      for (const [k, v] of Object.entries(rest)) if (!['id', 'created_at', 'author_id', 'member_id'].includes(k)) kept[k] = v;
      return kept;
    });
  const byContact = (
    t: 'contact_emails' | 'contact_phones' | 'contact_addresses' | 'contact_notes' | 'contact_activities' | 'contact_audit',
  ) => d.selectFrom(t).selectAll().where('contact_id', 'in', ids).orderBy('contact_id').orderBy('id').execute();
  const fields = await d.selectFrom('custom_fields').selectAll().where('org_id', '=', member.org_id).orderBy('id').execute();
  const fieldName = new Map(fields.map((f) => [f.id, f.display_name]));
  const audit = (await byContact('contact_audit')).map((a) => ({
    ...a,
    new_value: a.data_type === 'contact' ? String(at(Number(a.new_value))) : a.new_value,
  }));
  const notes = await byContact('contact_notes');
  const activities = await byContact('contact_activities');
  return {
    contacts: contacts.map(({ id: _id, org_id: _org, owner_id, folder_id, created_at, updated_at, ...rest }) => ({
      ...rest,
      owned: owner_id === member.id,
      foldered: folder_id !== null,
      times: created_at === updated_at,
    })),
    emails: of(await byContact('contact_emails')),
    phones: of(await byContact('contact_phones')),
    addresses: of(await byContact('contact_addresses')),
    notes: of(notes),
    notesBy: notes.every((n) => n.author_id === member.id),
    tags: (
      await d
        .selectFrom('contact_tags')
        .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
        .select(['contact_tags.contact_id', 'tags.title'])
        .where('contact_id', 'in', ids)
        .execute()
    )
      .map((t) => `${at(t.contact_id)}:${t.title}`)
      .sort(),
    catalogue: (await d.selectFrom('tags').select('title').where('org_id', '=', member.org_id).orderBy('id').execute()).map((t) => t.title),
    custom: (await d.selectFrom('contact_custom_values').selectAll().where('contact_id', 'in', ids).execute())
      .map((v) => `${at(v.contact_id)}:${fieldName.get(v.custom_field_id)}=${v.value}`)
      .sort(),
    options: (
      await d
        .selectFrom('custom_field_options')
        .select(['custom_field_id', 'label'])
        .where(
          'custom_field_id',
          'in',
          fields.map((f) => f.id),
        )
        .orderBy('id')
        .execute()
    ).map((o) => `${fieldName.get(o.custom_field_id)}:${o.label}`),
    counts: (
      await d
        .selectFrom('contact_counts')
        .select((eb) => ['owner_id', 'folder_key', 'trashed', 'archived', eb.fn.sum<number>('n').as('n')])
        .where('org_id', '=', member.org_id)
        .groupBy(['owner_id', 'folder_key', 'trashed', 'archived'])
        .execute()
    )
      .map((r) => `${r.owner_id === member.id}:${r.folder_key !== 0}:${r.trashed}:${r.archived}:${Number(r.n)}`)
      .sort(),
    activities: of(activities),
    activitiesBy: activities.every((a) => a.member_id === member.id),
    audit: of(audit),
    searches: await searches(member, ids),
  };
}

/** What the contacts list's search finds, as positions: names, a short prefix, e-mail parts, phone digits. */
async function searches(member: Member, ids: number[]) {
  const found: Record<string, number[]> = {};
  for (const q of ['renée', 'dup', 'ga', 'solo@example', 'example.com', 'work', '555011', '4155550199', 'jürgen', 'ana garcía']) {
    const reply = await api(member).get(`/rest/1/contacts?search=${encodeURIComponent(q)}&page_size=50`);
    expect(reply.status, reply.text).toBe(200);
    found[q] = (reply.body.contacts.contacts as { contact_user_id: string }[]).map((c) => ids.indexOf(Number(c.contact_user_id))).sort();
  }
  return found;
}

it('stores a batch of new contacts exactly as creating each of them does', async () => {
  const [one, batch] = [team.vendor, team.otherVendor];
  const [rows, batched] = [await drafts(one, await catalogue(one)), await drafts(batch, await catalogue(batch))];
  const oneActor = (await actorOf(db(), one.id))!;
  const batchActor = (await actorOf(db(), batch.id))!;
  const created = await write(async (tx) => {
    for (const draft of rows) await createFromDraft(tx, oneActor, draft);
    return createFromDrafts(tx, batchActor, batched);
  });
  expect(created).toHaveLength(4);
  expect([...created].sort((a, b) => a - b)).toEqual(created);
  const [expected, actual] = [await stored(one), await stored(batch)];
  expect(expected.contacts).toHaveLength(4);
  expect(expected.searches['renée']).toEqual([0]);
  expect(expected.options).toEqual(['Stage:Hot', 'Stage:cold']);
  expect(expected.catalogue).toEqual(['Existing', 'vip', 'New one', 'Other']);
  expect(actual).toEqual(expected);
  // The undo record's ids are the contacts', in the rows' order.
  const names = await db().selectFrom('contacts').select(['id', 'first_name', 'last_name']).where('id', 'in', created).execute();
  expect(created.map((id) => names.find((n) => n.id === id)!.last_name)).toEqual(['Dupré', '', 'Solo', 'García']);
});
