import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabase, type TestDatabase } from '../test/databases.js';
import { openStore, type Store, withSavepoint } from './database.js';
import { insertLater, statementsOf } from './later.js';

/*
 * Inserts held until the transaction's next statement (later.ts): on either store a write sees them, keeps their
 * order, loses them with its rollback and fails with them; on PostgreSQL they go together in fewer statements.
 */
describe('held inserts as statements', () => {
  it('puts inserts into distinct tables in one statement, numbering their parameters on, and splits where a table repeats', () => {
    const held = [
      { text: 'insert into "a" ("x", "y") values ($1, $2)', values: [1, 2] },
      { text: `insert into "b" ("x") values ($1) /* '$2' "$3" */`, values: [3] },
      { text: 'insert into "a" ("x") values ($1)', values: [4] },
      { text: 'delete from "c" where "x" = $1', values: [5] },
      { text: 'insert into "d" ("x") values ($1)', values: [6] },
    ];
    expect(statementsOf(held)).toEqual([
      {
        text: `with later_0 as (insert into "a" ("x", "y") values ($1, $2)), later_1 as (insert into "b" ("x") values ($3) /* '$2' "$3" */) select 1`,
        values: [1, 2, 3],
        parts: held.slice(0, 2),
      },
      { text: 'insert into "a" ("x") values ($1)', values: [4] },
      { text: 'delete from "c" where "x" = $1', values: [5] },
      { text: 'insert into "d" ("x") values ($1)', values: [6] },
    ]);
  });
});

let database: TestDatabase;
let store: Store;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-later-'));
  database = await testDatabase(dir);
  store = await openStore(database.url);
  await store.write(async (tx) => {
    await sql`create table later_rows (id ${sql.raw(onPostgres ? 'integer generated always as identity primary key' : 'integer primary key autoincrement')}, what text not null unique)`.execute(
      tx,
    );
    await sql`create table later_other (id integer primary key, what text not null)`.execute(tx);
  });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = () =>
  store.db
    .selectFrom('later_rows' as any)
    .select(['id', 'what'])
    .orderBy('id')
    .execute();
const other = (id: number) =>
  store.db
    .selectFrom('later_other' as any)
    .select('what')
    .where('id', '=', id)
    .execute();

describe('inserts held in a write', () => {
  it('are seen by the next statement, keep their order, and commit with the write', async () => {
    const seen = await store.write(async (tx) => {
      await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'first' }));
      await insertLater(tx, tx.insertInto('later_other' as any).values({ id: 1, what: 'beside' }));
      await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'second' }));
      return tx
        .selectFrom('later_rows' as any)
        .select('what')
        .orderBy('id')
        .execute();
    });
    expect(seen).toEqual([{ what: 'first' }, { what: 'second' }]);
    expect((await rows()).map((r: any) => r.what)).toEqual(['first', 'second']);
    expect(
      await store.db
        .selectFrom('later_other' as any)
        .selectAll()
        .execute(),
    ).toEqual([{ id: 1, what: 'beside' }]);
  });

  it('fail the write when one fails, at the commit at the latest, and leave nothing of it', async () => {
    const before = await rows();
    await expect(
      store.write(async (tx) => {
        await tx
          .insertInto('later_other' as any)
          .values({ id: 2, what: 'at once' })
          .execute();
        await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'third' }));
        // A duplicate of a committed row: refused by the unique index, whenever it is sent.
        await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'first' }));
      }),
    ).rejects.toMatchObject(onPostgres ? { code: '23505' } : { code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect(await rows()).toEqual(before);
    expect(await other(2)).toEqual([]);
  });

  // SQLite's store.db only reads (its writes go through store.write): there is no write outside a transaction to hold.
  it.runIf(onPostgres)('outside a transaction, run at once', async () => {
    await insertLater(store.db, store.db.insertInto('later_other' as any).values({ id: 3, what: 'alone' }));
    expect(await other(3)).toEqual([{ what: 'alone' }]);
  });

  it('are undone with the savepoint they were held under', async () => {
    await store.write(async (tx) => {
      await sql`savepoint held`.execute(tx);
      await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'undone' }));
      await sql`rollback to savepoint held`.execute(tx);
      await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'kept' }));
    });
    expect((await rows()).map((r: any) => r.what)).toEqual(['first', 'second', 'kept']);
  });

  it('withSavepoint: what the work wrote goes with its failure, what came before stays, and the write goes on', async () => {
    await store.write(async (tx) => {
      await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'before the savepoint' }));
      await expect(
        withSavepoint(tx, async (inner) => {
          await insertLater(inner, inner.insertInto('later_rows' as any).values({ what: 'inside, undone' }));
          await inner
            .selectFrom('later_rows' as any)
            .select('id')
            .execute();
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await withSavepoint(tx, (inner) => insertLater(inner, inner.insertInto('later_rows' as any).values({ what: 'inside, kept' })));
    });
    expect((await rows()).map((r: any) => r.what).slice(-2)).toEqual(['before the savepoint', 'inside, kept']);
  });

  it('withSavepoint: a held insert that fails before the savepoint fails the write with its own error', async () => {
    const refused = onPostgres ? { code: '23505' } : { code: expect.stringMatching(/^SQLITE_CONSTRAINT/) };
    const before = await rows();
    // The work's first statement carries the failing insert (PostgreSQL: the savepoint is never made).
    await expect(
      store.write(async (tx) => {
        await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'first' }));
        await withSavepoint(tx, (inner) =>
          inner
            .selectFrom('later_rows' as any)
            .select('id')
            .execute(),
        );
      }),
    ).rejects.toMatchObject(refused);
    // The work sends nothing and fails: the rollback to the savepoint carries the failing insert.
    await expect(
      store.write(async (tx) => {
        await insertLater(tx, tx.insertInto('later_rows' as any).values({ what: 'first' }));
        await withSavepoint(tx, async () => {
          throw new Error('refused before any statement');
        }).catch((error: Error) => {
          // As a batch does with one refused entry (dial-sessions.service.ts): a refusal is kept, any other failure not.
          if (error.message !== 'refused before any statement') throw error;
        });
        await tx
          .selectFrom('later_rows' as any)
          .select('id')
          .execute();
      }),
    ).rejects.toMatchObject(refused);
    expect(await rows()).toEqual(before);
  });
});
