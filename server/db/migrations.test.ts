import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations, openStore } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-migrations-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const AT = '2026-01-01 00:00:00';

/** A store file migrated only up to `migration`, with an organisation and members `usernames` in it. */
async function storeAt(name: string, migration: string, usernames: string[]) {
  const file = path.join(dir, name);
  const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo(migration)).error).toBeUndefined();
  const { id: orgId } = await old
    .insertInto('organisations')
    .values({ name: 'Old', created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  const members = await old
    .insertInto('members')
    .values(usernames.map((username) => ({ org_id: orgId, role: 'member', username, password_hash: 'x', created_at: AT, updated_at: AT })))
    .returning('id')
    .execute();
  return { file, old, orgId, memberIds: members.map((m) => m.id as number) };
}

it('counts the contacts a store already holds when it gains contact_counts', async () => {
  const { file, old, orgId, memberIds } = await storeAt('old.db', '0001-initial', ['a', 'b']);
  const at = AT;
  const [a, b] = memberIds.map((id) => ({ id })) as [{ id: number }, { id: number }];
  const { id: folderId } = await old
    .insertInto('folders')
    .values({ org_id: orgId, name: 'F', created_by: a.id, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const contact = (owner_id: number, folder_id: number | null, trashed = 0) => ({
    org_id: orgId,
    owner_id,
    folder_id,
    trashed,
    created_at: at,
    updated_at: at,
  });
  await old
    .insertInto('contacts')
    .values([contact(a.id, folderId), contact(a.id, folderId), contact(a.id, null), contact(a.id, null, 1), contact(b.id, folderId)])
    .execute();
  await old.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    const counts = await store.db
      .selectFrom('contact_counts')
      .select(['owner_id', 'folder_key', 'trashed', 'archived', 'n'])
      .orderBy('owner_id')
      .orderBy('folder_key')
      .orderBy('trashed')
      .execute();
    expect(counts).toEqual([
      { owner_id: a.id, folder_key: 0, trashed: 0, archived: 0, n: 1 },
      { owner_id: a.id, folder_key: 0, trashed: 1, archived: 0, n: 1 },
      { owner_id: a.id, folder_key: folderId, trashed: 0, archived: 0, n: 2 },
      { owner_id: b.id, folder_key: folderId, trashed: 0, archived: 0, n: 1 },
    ]);
  } finally {
    await store.close();
  }
});

it('marks the detail kinds of the contacts a store already holds when it gains detail_kinds', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [ownerId],
  } = await storeAt('kinds.db', '0002-contact-counts', ['a']);
  const at = AT;
  const contacts = await old
    .insertInto('contacts')
    .values([1, 2, 3].map(() => ({ org_id: orgId, owner_id: ownerId, created_at: at, updated_at: at })))
    .returning('id')
    .execute();
  const [bare, noted, many] = contacts.map((c) => c.id as number) as [number, number, number];
  await old
    .insertInto('contact_notes')
    .values([noted, many].map((contact_id) => ({ contact_id, body: 'n', created_at: at })))
    .execute();
  await old.insertInto('contact_names').values({ contact_id: many, first_name: 'A', last_name: 'B' }).execute();
  await old.insertInto('contact_addresses').values({ contact_id: many, city: 'C' }).execute();
  await old.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    const rows = await store.db.selectFrom('contacts').select(['id', 'detail_kinds']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: bare, detail_kinds: 0 },
      { id: noted, detail_kinds: 8 },
      { id: many, detail_kinds: 1 + 8 + 16 },
    ]);
  } finally {
    await store.close();
  }
});

it('starts the contacts and the organisation a store already holds at version 0 when it gains record versions', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [ownerId],
  } = await storeAt('versions.db', '0003-contact-detail-kinds', ['a']);
  const contacts = await old
    .insertInto('contacts')
    .values([1, 2].map(() => ({ org_id: orgId, owner_id: ownerId, created_at: AT, updated_at: AT })))
    .returning('id')
    .execute();
  await old.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    expect(await store.db.selectFrom('contacts').select(['id', 'version']).orderBy('id').execute()).toEqual(
      contacts.map((c) => ({ id: c.id, version: 0 })),
    );
    expect(await store.db.selectFrom('organisations').select(['id', 'catalog_version']).execute()).toEqual([
      { id: orgId, catalog_version: 0 },
    ]);
  } finally {
    await store.close();
  }
});

it('indexes for search the contacts a store already holds', async () => {
  const { file, old, orgId, memberIds } = await storeAt('search.db', '0008-bulk-jobs', ['s']);
  const { id } = await old
    .insertInto('contacts')
    .values({ org_id: orgId, owner_id: memberIds[0], first_name: 'Ethan', last_name: 'Murphy', created_at: AT, updated_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  await old
    .insertInto('contact_emails')
    .values({ contact_id: id, email_address: 'E@Acme.example', email_lc: 'e@acme.example', is_primary: 1 })
    .execute();
  await old
    .insertInto('contact_phones')
    .values([
      { contact_id: id, phone_number: '2149997486', is_primary: 1 },
      { contact_id: id, phone_number: '3125550100', is_primary: 0 },
    ])
    .execute();
  await old.destroy();
  const store = await openStore(`sqlite:${file}`);
  try {
    for (const match of ['"murphy"', 'emails : "acme.ex"', 'phones : "5550100"']) {
      const rows = await sql<{ rowid: number }>`select rowid from contact_search where contact_search match ${match}`.execute(store.db);
      expect(
        rows.rows.map((r) => r.rowid),
        match,
      ).toEqual([id]);
    }
  } finally {
    await store.close();
  }
});

it('fills the word index with the contacts a store already holds, outside the trash and the archive, under their owners', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [a, b],
  } = await storeAt('words.db', '0010-housekeeping', ['wa', 'wb']);
  const contact = (owner_id: number, first_name: string, state: { trashed?: number; archived?: number } = {}) => ({
    org_id: orgId,
    owner_id,
    first_name,
    last_name: 'Murphy',
    created_at: AT,
    updated_at: AT,
    trashed: 0,
    archived: 0,
    ...state,
  });
  const rows = await old
    .insertInto('contacts')
    .values([contact(a!, 'Ethan'), contact(b!, 'Olivia'), contact(a!, 'Trashed', { trashed: 1 }), contact(a!, 'Archived', { archived: 1 })])
    .returning('id')
    .execute();
  const [ethan, olivia] = rows.map((r) => r.id as number) as [number, number];
  await old
    .insertInto('contact_emails')
    .values({ contact_id: ethan, email_address: 'E@Acme.example', email_lc: 'e@acme.example', is_primary: 1 })
    .execute();
  await old
    .insertInto('contact_phones')
    .values([
      { contact_id: ethan, phone_number: '2149997486', is_primary: 1 },
      { contact_id: ethan, phone_number: '3125550100', is_primary: 0 },
    ])
    .execute();
  await old.destroy();
  const store = await openStore(`sqlite:${file}`);
  try {
    const found = async (match: string) =>
      (
        await sql<{ rowid: number }>`select rowid from contact_words where contact_words match ${match} order by rowid`.execute(store.db)
      ).rows.map((r) => r.rowid);
    expect(await found(`"o${a}xwurph"*`)).toEqual([ethan]);
    expect(await found(`"o${b}xwurph"*`)).toEqual([olivia]);
    expect(await found(`"o${a}xwacme"*`)).toEqual([ethan]);
    expect(await found(`"o${a}xp5550100"*`)).toEqual([ethan]);
    expect(await found(`"o${a}xwtrashed"* OR "o${a}xwarchived"*`)).toEqual([]);
  } finally {
    await store.close();
  }
});
