import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import { runLater } from './later.js';

/*
 * Row and key locks, said once for both stores (docs/store.md, "The concurrency contract"). On SQLite every write
 * transaction runs alone (one writer, group commit), so a read inside it already holds: each helper is a no-op there.
 * On PostgreSQL, where any number of transactions on any number of servers write at once, each takes the lock that
 * makes its read-then-write hold.
 */

type Lockable<Q> = { forUpdate(): Q; skipLocked(): Q };

/** `select … for update`: the rows read are this transaction's until it ends; another writer of them waits. */
export const forUpdate = <Q extends Lockable<Q>>(db: Kysely<any>, query: Q): Q => (isPostgres(db) ? query.forUpdate() : query);

/**
 * `select … for update skip locked`: a claim. Rows another transaction holds are passed over, not waited for, so two
 * servers claiming at once each get rows the other did not (then marked claimed in the same transaction).
 */
export const claimable = <Q extends Lockable<Q>>(db: Kysely<any>, query: Q): Q => (isPostgres(db) ? query.forUpdate().skipLocked() : query);

/**
 * Transaction-scoped locks of some keys (`pg_advisory_xact_lock`): a check that something does not exist yet and the
 * insert that follows it (a duplicate check, an idempotency key) run one at a time per key, released at commit or
 * rollback. The keys are taken in sorted order, so two transactions locking overlapping keys cannot deadlock on them.
 */
export async function lockKeys(tx: Kysely<any>, space: string, keys: string[]): Promise<void> {
  if (!isPostgres(tx) || !keys.length) return;
  // One statement (the target list is evaluated left to right, so the locks are still taken in order), held: it goes in
  // the round trip of the transaction's next statement, which runs once the locks are taken.
  const locks = [...new Set(keys)].sort().map((key) => sql`pg_advisory_xact_lock(hashtext(${space}), hashtext(${key}))`);
  await runLater(tx, sql`select ${sql.join(locks)}`.compile(tx));
}

/*
 * Ids that commit out of order (PostgreSQL): a reader that follows a table by id (the dialer's event stream) must not
 * move past an id a writer has taken but not yet committed, or that row, once committed, is never read. Writers of such
 * a table hold a shared lock of it for their transaction (`writingTo`), taken before they take any other lock; the
 * reader asks for the highest id no writer can still commit below (`settledMaxId`): it takes the exclusive lock, which
 * it gets once every transaction that had taken an id has ended, reads the highest id then, and lets go at once.
 * On SQLite ids commit in order: no lock, and every id seen is settled.
 */

/** A writer of a table followed by id: held until the transaction ends (PostgreSQL). */
export async function writingTo(tx: Kysely<any>, table: string): Promise<void> {
  if (!isPostgres(tx)) return;
  // Held, as lockKeys' locks are: taken before the transaction's next statement runs.
  await runLater(tx, sql`select pg_advisory_xact_lock_shared(hashtext('writers'), hashtext(${table}))`.compile(tx));
}

/** The highest id below which no row of `table` can still commit; `highest` reads the highest id there is. */
export async function settledMaxId(db: Kysely<any>, table: string, highest: (db: Kysely<any>) => Promise<number>): Promise<number> {
  if (!isPostgres(db)) return highest(db);
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('writers'), hashtext(${table}))`.execute(tx);
    return highest(tx);
  });
}
