import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyOnPostgres, postgresDatabase, type TestDatabase } from '../test/databases.js';
import { openStore, type Store } from './database.js';
import { PLAN_EACH_RUN, prepared } from './prepared.js';

/*
 * On PostgreSQL a prepared query (prepared.ts) runs as a named statement, parsed and planned once per connection;
 * any other SQL stays unnamed, so what a connection keeps is bounded by the prepared queries' shapes.
 */

const only = await onlyOnPostgres('named statements on PostgreSQL');
describe.skipIf(only.skip)(only.title, () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await postgresDatabase();
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('a prepared query is kept by its connection and runs again with new values; other SQL is not kept', async () => {
    const orgNamed = prepared<null, { name: string }, { name: string }>('org by name (test)', (db, _, p) =>
      db.selectFrom('organisations').select('name').where('name', '=', p.name),
    );
    const kept = await store.write(async (tx) => {
      await tx
        .insertInto('organisations')
        .values(['Alpha', 'Beta'].map((name) => ({ name, created_at: '2026-01-01 00:00:00' })))
        .execute();
      expect(await orgNamed(tx, null, { name: 'Alpha' })).toEqual([{ name: 'Alpha' }]);
      expect(await orgNamed(tx, null, { name: 'Beta' })).toEqual([{ name: 'Beta' }]);
      expect(await orgNamed(tx, null, { name: 'Gamma' })).toEqual([]);
      await tx.selectFrom('organisations').select('id').where('name', '=', 'Alpha').execute();
      // The same connection (the transaction's) lists what it keeps.
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(tx);
      return rows.map((r) => r.statement);
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/from "organisations" where "name" = \$1/);
  });

  it('a prepared query whose plan depends on its values is planned at every run: its connection keeps none', async () => {
    const orgLike = prepared<null, { pattern: string }, { name: string }>('org like (test)', (db, _, p) =>
      db
        .selectFrom('organisations')
        .select('name')
        .where(sql<boolean>`name like ${p.pattern} ${sql.raw(PLAN_EACH_RUN)}`),
    );
    const kept = await store.write(async (tx) => {
      await tx.insertInto('organisations').values({ name: 'Gamma', created_at: '2026-01-01 00:00:00' }).execute();
      expect(await orgLike(tx, null, { pattern: 'Gam%' })).toEqual([{ name: 'Gamma' }]);
      expect(await orgLike(tx, null, { pattern: 'Zed%' })).toEqual([]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(tx);
      return rows.map((r) => r.statement);
    });
    expect(kept.filter((s) => s.includes('like'))).toEqual([]);
  });
});
