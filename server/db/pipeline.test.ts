import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { onlyOnPostgres, postgresDatabase, type TestDatabase } from '../test/databases.js';
import { openStore, type Store } from './database.js';
import { pipelined } from './pipeline.js';

/*
 * Statements sent together in one round trip (pipeline.ts), on a real PostgreSQL connection: in order, each seeing
 * what the ones before it wrote, one answer each; a failure fails them all and leaves the connection usable and right
 * about which named statements it has.
 */

const only = await onlyOnPostgres('pipelined statements on PostgreSQL');
describe.skipIf(only.skip)(only.title, () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await postgresDatabase();
    const setup = new pg.Client({ connectionString: database.url });
    await setup.connect();
    await setup.query('create table pipeline_items (id serial primary key, name text unique not null)');
    await setup.end();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('truncate pipeline_items restart identity');
  });
  afterEach(async () => {
    await client.end();
  });

  const names = async () => (await client.query('select name from pipeline_items order by id')).rows.map((r) => r.name);
  const kept = async () =>
    (await client.query('select name from pg_prepared_statements order by name')).rows.map((r: { name: string }) => r.name);

  it('runs the statements in order, each seeing the ones before, and answers each', async () => {
    const results = await pipelined(client, [
      { text: 'begin', values: [] },
      { text: 'insert into pipeline_items (name) values ($1), ($2)', values: ['a', 'b'] },
      { text: 'select count(*)::int as n from pipeline_items', values: [] },
      { text: 'insert into pipeline_items (name) values ($1) returning id', values: ['c'], name: 'pipeline_insert' },
      { text: 'commit', values: [] },
    ]);
    expect(results.map((r) => r.command)).toEqual(['BEGIN', 'INSERT', 'SELECT', 'INSERT', 'COMMIT']);
    expect(results[1]!.rowCount).toBe(2);
    expect(results[2]!.rows).toEqual([{ n: 2 }]);
    expect(results[3]!.rows).toEqual([{ id: 3 }]);
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('a statement that fails fails them all with its error; those after it do not run; the connection goes on', async () => {
    const failing = pipelined(client, [
      { text: 'begin', values: [] },
      { text: 'insert into pipeline_items (name) values ($1)', values: ['a'] },
      { text: 'insert into pipeline_items (name) values ($1)', values: ['a'] },
      { text: 'insert into pipeline_items (name) values ($1)', values: ['after'] },
    ]);
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    // The transaction the pipeline began is aborted, as after any failed statement, and rolls back.
    await expect(client.query('select 1')).rejects.toMatchObject({ code: '25P02' });
    await client.query('rollback');
    expect(await names()).toEqual([]);
    // Sequences are not rolled back: the last insert never took an id (1 and 2 went to the first two).
    expect((await client.query('select last_value from pipeline_items_id_seq')).rows).toEqual([{ last_value: 2 }]);
    expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('after a failure the connection knows the named statements parsed before it, and only those', async () => {
    const before = { text: 'insert into pipeline_items (name) values ($1)', name: 'pipeline_before' };
    const after = { text: 'select name from pipeline_items where name = $1', name: 'pipeline_after' };
    await expect(
      pipelined(client, [
        { ...before, values: ['x'] },
        { text: 'select 1 / $1::int', values: [0] },
        { ...after, values: ['x'] },
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await kept()).toEqual(['pipeline_before']);
    // Both run again, the first bound as kept, the second parsed now.
    const results = await pipelined(client, [
      { ...before, values: ['y'] },
      { ...after, values: ['y'] },
    ]);
    expect(results[1]!.rows).toEqual([{ name: 'y' }]);
    expect(await kept()).toEqual(['pipeline_after', 'pipeline_before']);
    // Outside a transaction the failed pipeline's statements were one implicit transaction: its 'x' is not there.
    expect(await names()).toEqual(['y']);
  });

  it('a value that cannot be sent throws before anything is written', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => pipelined(client, [{ text: 'insert into pipeline_items (name) values ($1)', values: [circular] }])).toThrow(/circular/i);
    expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    expect(await names()).toEqual([]);
  });

  describe('through the store (BEGIN and held statements go with the next statement)', () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore(database.url);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('a write that sends nothing commits; one whose first statement fails rolls back and says why', async () => {
      expect(await store.write(async () => 'nothing')).toBe('nothing');
      await expect(store.write((tx) => sql`select 1 / 0`.execute(tx))).rejects.toMatchObject({ code: '22012' });
      await expect(
        store.write(async () => {
          throw new Error('before any statement');
        }),
      ).rejects.toThrow('before any statement');
      // The pool's connections are all usable after those.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.write((tx) => sql<{ n: number }>`select ${i}::int as n`.execute(tx))),
      );
      expect(answers.map((a) => a.rows[0]!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    });
  });
});
