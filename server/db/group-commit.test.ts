import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { forBatchEnd } from './batch-end.js';
import { GroupCommit } from './group-commit.js';
import type { Database } from './schema.js';

let store: Store;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-store-'));

beforeAll(async () => {
  store = await openStore(`sqlite:${path.join(dir, 'store.db')}`);
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const organisation = (name: string) => (tx: Store['db']) =>
  tx.insertInto('organisations').values({ name, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow();

const names = async () => (await store.db.selectFrom('organisations').select('name').orderBy('id').execute()).map((r) => r.name);

it('commits concurrent writers together and rolls back only the one that fails', async () => {
  const results = await Promise.allSettled([
    store.write(organisation('a')),
    store.write(async (tx) => {
      await organisation('half-done')(tx);
      throw new Error('refused');
    }),
    store.write(organisation('b')),
    store.write(async (tx) => {
      // A later writer in the same batch sees the earlier writers' rows.
      const seen = await tx.selectFrom('organisations').select('name').where('name', '=', 'b').executeTakeFirst();
      return organisation(seen ? 'c-after-b' : 'c-alone')(tx);
    }),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  expect(await names()).toEqual(['a', 'b', 'c-after-b']);
});

describe('work left for the end of a batch', () => {
  const KEY = {};
  /** A writer that leaves its name for the batch's end: one row, written after every writer's savepoint. */
  const leave =
    (name: string, fail = false) =>
    (tx: Store['db']) => {
      const state = forBatchEnd(tx, KEY, () => {
        const left: string[] = [];
        return {
          state: left,
          run: async () => {
            await organisation(`end:${left.join('+')}`)(tx);
            if (fail) throw new Error('end failed');
          },
        };
      });
      state!.push(name);
      return Promise.resolve(name);
    };

  it('runs once per batch, after its writers, with what every one of them left', async () => {
    const before = (await names()).length;
    const results = await Promise.all([store.write(leave('x')), store.write(leave('y')), store.write(organisation('beside'))]);
    expect(results[0]).toBe('x');
    const added = (await names()).slice(before);
    expect(added).toEqual(['beside', 'end:x+y']);
  });

  it('fails every writer of the batch, committing none, when it fails', async () => {
    const before = await names();
    const results = await Promise.allSettled([store.write(organisation('doomed')), store.write(leave('z', true))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await names()).toEqual(before);
    // The next batch starts clean.
    await store.write(leave('next'));
    expect((await names()).at(-1)).toBe('end:next');
  });

  it('is not there outside a batch', () => {
    expect(forBatchEnd(store.db, KEY, () => ({ state: [], run: async () => undefined }))).toBeUndefined();
  });
});

it('answers writes one after another as well', async () => {
  for (const name of ['d', 'e']) await store.write(organisation(name));
  expect((await names()).slice(-2)).toEqual(['d', 'e']);
});

it('keeps what it acknowledged across a reopen of the file', async () => {
  await store.write(organisation('durable'));
  const reopened = await openStore(`sqlite:${path.join(dir, 'store.db')}`);
  const row = await reopened.db.selectFrom('organisations').select('name').where('name', '=', 'durable').executeTakeFirst();
  await reopened.close();
  expect(row?.name).toBe('durable');
});

describe('when another process holds the write lock', () => {
  const file = path.join(dir, 'store.db');
  const holdLock = () => {
    const other = new SQLite(file);
    other.exec('begin immediate');
    return { release: () => other.exec('commit'), close: () => other.close() };
  };

  it('waits for it without stalling the event loop, then commits', async () => {
    const other = holdLock();
    let committed = false;
    const write = store.write(organisation('after-the-lock')).then(() => (committed = true));
    // Reads and timers keep being served while the batch waits.
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(performance.now() - started).toBeLessThan(200);
    expect(await names()).not.toContain('after-the-lock');
    expect(committed).toBe(false);
    other.release();
    await write;
    other.close();
    expect(await names()).toContain('after-the-lock');
  });

  it('fails the waiting writers with SQLITE_BUSY once the wait runs out, and carries on afterwards', async () => {
    const other = holdLock();
    const writer = new SQLite(file, { timeout: 0 });
    const commits = new GroupCommit(new Kysely<Database>({ dialect: new SqliteDialect({ database: writer }) }), 50);
    try {
      await expect(commits.run(organisation('never'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      other.release();
      await commits.run(organisation('later'));
      expect(await names()).not.toContain('never');
      expect(await names()).toContain('later');
    } finally {
      other.close();
      writer.close();
    }
  });
});

it('drops the planner samples ANALYZE leaves, keeping its per-index figures', async () => {
  const file = path.join(dir, 'analyzed.db');
  const count = (db: Store['db'], table: string) =>
    sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db).then((r) => r.rows[0]!.n);
  const first = await openStore(`sqlite:${file}`);
  await first.write(async (tx) => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ key: `user:${i}`, attempts: 1, window_started_at: '2026-01-01 00:00:00' }));
    await tx.insertInto('sign_in_attempts').values(rows).execute();
    await sql`analyze`.execute(tx);
  });
  expect(await count(first.db, 'sqlite_stat4')).toBeGreaterThan(0);
  await first.close();
  const reopened = await openStore(`sqlite:${file}`);
  try {
    expect(await count(reopened.db, 'sqlite_stat1')).toBeGreaterThan(0);
    expect(await count(reopened.db, 'sqlite_stat4')).toBe(0);
  } finally {
    await reopened.close();
  }
});

it('refuses writes and transactions on the reader, pointing at store.write', async () => {
  const insert = (name: string) => store.db.insertInto('organisations').values({ name, created_at: '2026-01-01 00:00:00' });
  await expect(insert('sneaky').execute()).rejects.toThrow(/only reads; write through store\.write/);
  // A write that returns rows reaches SQLite, which refuses it on the read-only connection.
  await expect(insert('sneaky').returning('id').execute()).rejects.toThrow(/readonly database/);
  await expect(store.db.transaction().execute(async () => undefined)).rejects.toThrow(/runs no transactions/);
  expect(await names()).not.toContain('sneaky');
});

it('returns rows as plain objects keyed by column, from the reader and from writes that return rows', async () => {
  const [org] = await store.write((tx) =>
    tx.insertInto('organisations').values({ name: 'Shapes', created_at: '2026-01-01 00:00:00' }).returning(['id', 'name']).execute(),
  );
  expect(org).toEqual({ id: expect.any(Number), name: 'Shapes' });
  const rows = await sql<
    Record<string, unknown>
  >`select id, name, null as missing, 2.5 as half, id as "two words" from organisations where id = ${org!.id}`.execute(store.db);
  expect(rows.rows).toEqual([{ id: org!.id, name: 'Shapes', missing: null, half: 2.5, 'two words': org!.id }]);
  // A name that repeats keeps the last column's value, as better-sqlite3's own objects do.
  const repeated = await sql<{ v: number }>`select 1 as v, 2 as v`.execute(store.db);
  expect(repeated.rows).toEqual([{ v: 2 }]);
  // "__proto__" stays a column, never the row's prototype.
  const proto = await sql<Record<string, unknown>>`select 'x' as "__proto__"`.execute(store.db);
  expect(Object.getPrototypeOf(proto.rows[0])).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(proto.rows[0], '__proto__')?.value).toBe('x');
});
