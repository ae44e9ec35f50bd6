import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyOnPostgres, postgresDatabase, type TestDatabase } from '../test/databases.js';
import { migrations, openStore } from './database.js';

/* Migrations that do something of their own on PostgreSQL, run on a store that already holds data. */
const AT = '2026-01-01 00:00:00';

const only = await onlyOnPostgres('PostgreSQL migrations on a store with data');
describe.skipIf(only.skip)(only.title, () => {
  let database: TestDatabase;
  let old: Kysely<any>;

  beforeAll(async () => {
    database = await postgresDatabase();
    old = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
  });
  afterAll(async () => {
    await old?.destroy();
    await database?.drop();
  });

  it("gives the search rows a store already holds their contacts' owners (0023), and its search finds them by owner", async () => {
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0022-count-stripes')).error).toBeUndefined();
    const { id: orgId } = await old
      .insertInto('organisations')
      .values({ name: 'Old', created_at: AT })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [a, b] = await old
      .insertInto('members')
      .values(
        ['a', 'b'].map((username) => ({ org_id: orgId, role: 'member', username, password_hash: 'x', created_at: AT, updated_at: AT })),
      )
      .returning('id')
      .execute();
    const contacts = await old
      .insertInto('contacts')
      .values([a!.id, b!.id, b!.id].map((owner_id) => ({ org_id: orgId, owner_id, first_name: 'Zed', created_at: AT, updated_at: AT })))
      .returning(['id', 'owner_id'])
      .execute();
    await old
      .insertInto('contact_search')
      .values(contacts.map((c) => ({ contact_id: c.id, names: 'zed' })))
      .execute();
    await old.destroy();

    const store = await openStore(database.url);
    try {
      const rows = await sql<{
        contact_id: number;
        owner_id: number;
      }>`select contact_id, owner_id from contact_search order by contact_id`.execute(store.db);
      expect(rows.rows).toEqual(contacts.map((c) => ({ contact_id: c.id, owner_id: c.owner_id })));
      const found = await sql<{
        n: number;
      }>`select count(*) as n from contact_search where owner_id = ${b!.id} and names like '%zed%'`.execute(store.db);
      expect(found.rows[0]?.n).toBe(2);
    } finally {
      await store.close();
    }
  });
});
