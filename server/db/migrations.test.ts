import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { STARTER_VOICEMAIL_NAME } from '../audio/starter-voicemail.js';
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

it('keeps the usage of the calls a store already holds, per member and day, with the sessions of each day', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [a, b],
  } = await storeAt('usage.db', '0011-contact-words', ['ua', 'ub']);
  const session = async (member_id: number) =>
    (
      await old
        .insertInto('dial_sessions')
        .values({
          org_id: orgId,
          member_id,
          status: 'ended',
          phase: 'done',
          position: 0,
          contact_count: 1,
          request_hash: `h${member_id}`,
          created_at: AT,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  const [s1, s2, s3] = [await session(a!), await session(a!), await session(b!)];
  const call = (
    session_id: number,
    member_id: number,
    started_at: string,
    figures: { live?: number; voicemail?: number; talk_seconds?: number } = {},
  ) => ({
    session_id,
    org_id: orgId,
    member_id,
    contact_id: 1,
    position: 0,
    started_at,
    live: 0,
    voicemail: 0,
    talk_seconds: 0,
    ...figures,
  });
  await old
    .insertInto('calls')
    .values([
      call(s1, a!, '2026-03-01 23:59:00', { live: 1, talk_seconds: 90 }),
      call(s1, a!, '2026-03-02 00:01:00', { talk_seconds: 40 }),
      call(s2, a!, '2026-03-02 10:00:00', { voicemail: 1 }),
      call(s2, a!, '2026-03-02 10:05:00', { live: 1, talk_seconds: 30 }),
      call(s3, b!, '2026-03-02 11:00:00'),
    ])
    .execute();
  await old.destroy();
  const store = await openStore(`sqlite:${file}`);
  try {
    const days = await store.db
      .selectFrom('usage_days')
      .select(['member_id', 'day', 'calls', 'connected', 'voicemail', 'emails', 'talk_seconds'])
      .orderBy('member_id')
      .orderBy('day')
      .execute();
    expect(days).toEqual([
      { member_id: a, day: '2026-03-01', calls: 1, connected: 1, voicemail: 0, emails: 0, talk_seconds: 90 },
      { member_id: a, day: '2026-03-02', calls: 3, connected: 1, voicemail: 1, emails: 0, talk_seconds: 30 },
      { member_id: b, day: '2026-03-02', calls: 1, connected: 0, voicemail: 0, emails: 0, talk_seconds: 0 },
    ]);
    const sessions = await store.db
      .selectFrom('usage_day_sessions')
      .select(['day', 'session_id'])
      .orderBy('session_id')
      .orderBy('day')
      .execute();
    expect(sessions).toEqual([
      { day: '2026-03-01', session_id: s1 },
      { day: '2026-03-02', session_id: s1 },
      { day: '2026-03-02', session_id: s2 },
      { day: '2026-03-02', session_id: s3 },
    ]);
  } finally {
    await store.close();
  }
});

it('keeps the calls a store already holds per member, day and disposition label, those without one under an empty label', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [a, b],
  } = await storeAt('outcomes.db', '0014-recordings', ['oa', 'ob']);
  const { id: sessionId } = await old
    .insertInto('dial_sessions')
    .values({
      org_id: orgId,
      member_id: a,
      status: 'ended',
      phase: 'done',
      position: 0,
      contact_count: 1,
      request_hash: 'h',
      created_at: AT,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const call = (member_id: number, started_at: string, disposition: string) => ({
    session_id: sessionId,
    org_id: orgId,
    member_id,
    contact_id: 1,
    position: 0,
    started_at,
    disposition,
  });
  await old
    .insertInto('calls')
    .values([
      call(a!, '2026-03-01 23:59:00', 'Interested'),
      call(a!, '2026-03-02 00:01:00', 'Interested'),
      call(a!, '2026-03-02 09:00:00', 'Interested'),
      call(a!, '2026-03-02 10:00:00', ''),
      call(b!, '2026-03-02 11:00:00', 'Busy'),
    ])
    .execute();
  await old.destroy();
  const store = await openStore(`sqlite:${file}`);
  try {
    const rows = await store.db
      .selectFrom('usage_dispositions')
      .select(['member_id', 'day', 'disposition', 'calls'])
      .orderBy('member_id')
      .orderBy('day')
      .orderBy('disposition')
      .execute();
    expect(rows).toEqual([
      { member_id: a, day: '2026-03-01', disposition: 'Interested', calls: 1 },
      { member_id: a, day: '2026-03-02', disposition: '', calls: 1 },
      { member_id: a, day: '2026-03-02', disposition: 'Interested', calls: 2 },
      { member_id: b, day: '2026-03-02', disposition: 'Busy', calls: 1 },
    ]);
  } finally {
    await store.close();
  }
});

it('gives every organisation a store already holds the starter voicemail, beside its own recordings', async () => {
  const {
    file,
    old,
    orgId,
    memberIds: [a],
  } = await storeAt('voicemails.db', '0018-calls-by-day', ['va']);
  const { id: otherOrg } = await old
    .insertInto('organisations')
    .values({ name: 'Other', created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  await old
    .insertInto('voicemails')
    .values({
      org_id: orgId,
      member_id: a,
      name: 'Mine',
      content_type: 'audio/wav',
      audio: Buffer.from('RIFF'),
      duration_ms: 1000,
      created_at: AT,
    })
    .execute();
  await old.destroy();
  const store = await openStore(`sqlite:${file}`);
  try {
    const rows = await store.db
      .selectFrom('voicemails')
      .select(['org_id', 'member_id', 'name', 'system', 'content_type'])
      .orderBy('org_id')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { org_id: orgId, member_id: a, name: 'Mine', system: 0, content_type: 'audio/wav' },
      { org_id: orgId, member_id: null, name: STARTER_VOICEMAIL_NAME, system: 1, content_type: 'audio/ogg' },
      { org_id: otherOrg, member_id: null, name: STARTER_VOICEMAIL_NAME, system: 1, content_type: 'audio/ogg' },
    ]);
  } finally {
    await store.close();
  }
});
