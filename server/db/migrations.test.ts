import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations, openStore } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-migrations-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('counts the contacts a store already holds when it gains contact_counts', async () => {
  const file = path.join(dir, 'old.db');
  const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo('0001-initial')).error).toBeUndefined();
  const at = '2026-01-01 00:00:00';
  const { id: orgId } = await old.insertInto('organisations').values({ name: 'Old', created_at: at }).returning('id').executeTakeFirstOrThrow();
  const member = (username: string) => ({ org_id: orgId, role: 'member', username, password_hash: 'x', created_at: at, updated_at: at });
  const [a, b] = await old.insertInto('members').values([member('a'), member('b')]).returning('id').execute();
  const { id: folderId } = await old.insertInto('folders').values({ org_id: orgId, name: 'F', created_by: a.id, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
  const contact = (owner_id: number, folder_id: number | null, trashed = 0) => ({ org_id: orgId, owner_id, folder_id, trashed, created_at: at, updated_at: at });
  await old.insertInto('contacts').values([contact(a.id, folderId), contact(a.id, folderId), contact(a.id, null), contact(a.id, null, 1), contact(b.id, folderId)]).execute();
  await old.destroy();

  const store = await openStore(`sqlite:${file}`);
  try {
    const counts = await store.db.selectFrom('contact_counts').select(['owner_id', 'folder_key', 'trashed', 'archived', 'n'])
      .orderBy('owner_id').orderBy('folder_key').orderBy('trashed').execute();
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
