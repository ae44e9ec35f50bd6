import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database, Db } from './schema.js';
import * as initial from './migrations/0001-initial.js';
import * as contactCounts from './migrations/0002-contact-counts.js';
import * as detailKinds from './migrations/0003-contact-detail-kinds.js';
import * as recordVersions from './migrations/0004-record-versions.js';
import * as ownerSortIndexes from './migrations/0005-owner-sort-indexes.js';
import * as signInAttempts from './migrations/0006-sign-in-attempts.js';
import * as dialer from './migrations/0007-dialer.js';
import * as bulkJobs from './migrations/0008-bulk-jobs.js';
import * as contactSearch from './migrations/0009-contact-search.js';
import * as housekeeping from './migrations/0010-housekeeping.js';
import * as contactWords from './migrations/0011-contact-words.js';
import * as memberRemoval from './migrations/0012-member-removal.js';
import * as usageDays from './migrations/0013-usage-days.js';
import * as recordings from './migrations/0014-recordings.js';
import * as runningSessions from './migrations/0015-running-sessions.js';
import * as recordingRetention from './migrations/0016-recording-retention.js';
import * as usageDispositions from './migrations/0017-usage-dispositions.js';
import * as callsByDay from './migrations/0018-calls-by-day.js';
import * as systemVoicemails from './migrations/0019-system-voicemails.js';
import * as expectedRecordings from './migrations/0020-expected-recordings.js';
import * as passes from './migrations/0021-passes.js';
import * as countStripes from './migrations/0022-count-stripes.js';
import * as searchOwners from './migrations/0023-search-owners.js';
import * as oauth from './migrations/0024-oauth.js';
import * as dispositionEmails from './migrations/0025-disposition-emails.js';
import * as imports from './migrations/0026-imports.js';
import { GroupCommit } from './group-commit.js';
import { runLater } from './later.js';
import { isPostgresUrl, openPostgres } from './postgres-store.js';
import { postgresSignals, type Signals } from './signals.js';
import { ReaderDialect, withStatementCache } from './sqlite-connections.js';
import { markStore } from './store-kind.js';

export type { Db };

export type Store = {
  /** Reads what is committed. Read-only: every write goes through `write`. */
  db: Db;
  /**
   * Runs `work` as one atomic unit of a write transaction and resolves once it is durably committed.
   * Inside `work`, use only the `tx` it is given.
   */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /** Signals from other servers' commits (`db/signals.ts`): PostgreSQL's LISTEN/NOTIFY; absent on SQLite, where processes poll. */
  signals?: Signals;
  close(): Promise<void>;
};

export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-contact-counts': contactCounts,
  '0003-contact-detail-kinds': detailKinds,
  '0004-record-versions': recordVersions,
  '0005-owner-sort-indexes': ownerSortIndexes,
  '0006-sign-in-attempts': signInAttempts,
  '0007-dialer': dialer,
  '0008-bulk-jobs': bulkJobs,
  '0009-contact-search': contactSearch,
  '0010-housekeeping': housekeeping,
  '0011-contact-words': contactWords,
  '0012-member-removal': memberRemoval,
  '0013-usage-days': usageDays,
  '0014-recordings': recordings,
  '0015-running-sessions': runningSessions,
  '0016-recording-retention': recordingRetention,
  '0017-usage-dispositions': usageDispositions,
  '0018-calls-by-day': callsByDay,
  '0019-system-voicemails': systemVoicemails,
  '0020-expected-recordings': expectedRecordings,
  '0021-passes': passes,
  '0022-count-stripes': countStripes,
  '0023-search-owners': searchOwners,
  '0024-oauth': oauth,
  '0025-disposition-emails': dispositionEmails,
  '0026-imports': imports,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Opens the store named by a `sqlite:<path>` URL and applies pending migrations. Two connections: a writer,
 * behind group commit, and a read-only reader. WAL lets the reader run beside an open write transaction, so
 * requests do not queue behind writes; being read-only, it refuses any write that bypasses `write`.
 */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) {
    // Migrations run on connections of their own, without the statement time-out (an index over a large table).
    const migrating = openPostgres(databaseUrl, { statementTimeoutMs: 0 });
    markStore('postgres', migrating.db);
    try {
      // Kysely's migrator takes a lock in the database: servers starting together migrate once.
      await migrate(migrating.db);
    } finally {
      await migrating.close();
    }
    const store = openPostgres(databaseUrl);
    // Which store this is, said once: what differs beyond SQL's dialect (the contacts' search) is chosen by it.
    markStore('postgres', store.db);
    const signals = postgresSignals(databaseUrl);
    return {
      ...store,
      signals,
      close: async () => {
        await signals.close();
        await store.close();
      },
    };
  }
  const file = sqlitePath(databaseUrl);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it is acknowledged. Group commit shares that fsync between writers.
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  writer.pragma('cache_size = -65536');
  const writeDb = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(writer) }) });
  markStore('sqlite', writeDb);
  await migrate(writeDb);
  dropPlannerSamples(writer);
  // From here on the writer is only used by group commit, which waits for the write lock without blocking.
  writer.pragma('busy_timeout = 0');
  const reader = new SQLite(file, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  reader.pragma('cache_size = -65536');
  // Reads map the file rather than copy each page into the connection's cache: a search that looks up thousands of
  // matches by key took half the time (8.5 ms to 4.4 ms at a million contacts). 2 GiB is SQLite's own ceiling.
  reader.pragma('mmap_size = 2147418112');
  const db = new Kysely<Database>({ dialect: new ReaderDialect(withStatementCache(reader)) });
  markStore('sqlite', db);
  const commits = new GroupCommit(writeDb);
  return {
    db,
    write: (work) => commits.run(work),
    close: async () => {
      await db.destroy();
      await writeDb.destroy();
    },
  };
}

/*
 * better-sqlite3 builds SQLite with STAT4. Once ANALYZE (or PRAGMA optimize) has filled sqlite_stat4, SQLite
 * plans a statement again at every execution whose bound values might change the plan: nearly every query
 * here, since they filter indexed columns by parameters. That made a one-row look-up cost 60 us instead of 4.
 * Our plans follow from the indexes, so the store keeps ANALYZE's per-index figures (sqlite_stat1) and drops
 * its samples, then has SQLite reload the statistics.
 */
function dropPlannerSamples(writer: SQLite.Database) {
  if (!writer.prepare(`select 1 from sqlite_schema where name = 'sqlite_stat4'`).get()) return;
  writer.exec('delete from sqlite_stat4; analyze sqlite_schema');
}

/* Savepoints of one name nest (each name refers to the latest of that name), on SQLite and PostgreSQL alike. */
const SAVEPOINT = CompiledQuery.raw('savepoint nested');
const RELEASE = CompiledQuery.raw('release nested');
const ROLLBACK_TO = CompiledQuery.raw('rollback to nested');

/**
 * Runs `work` inside a savepoint of the caller's transaction: if it throws, what it wrote is undone and the rest of
 * the transaction goes on (one refused entry of a batch).
 */
export async function withSavepoint<T>(tx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  // Held on PostgreSQL (later.ts): the savepoint goes with the first statement of `work`, its release with the next
  // statement after it, each in that statement's round trip. The rollback to it is sent at once.
  await runLater(tx, SAVEPOINT);
  try {
    const result = await work(tx);
    await runLater(tx, RELEASE);
    return result;
  } catch (error) {
    try {
      await tx.executeQuery(ROLLBACK_TO);
    } catch (rollbackError) {
      // The savepoint was never made (3B001): a held statement before it failed in the round trip of `work`'s first
      // statement, and `error` is that failure. Any other: held statements sent with the rollback failed, and it is
      // theirs. Either way the transaction is aborted, and the write fails with what failed first.
      throw (rollbackError as { code?: string }).code === '3B001' ? error : rollbackError;
    }
    await runLater(tx, RELEASE);
    throw error;
  }
}

/** A read that answers only when the store does: the health check. */
export async function ping(db: Db): Promise<void> {
  await db.selectFrom('organisations').select('id').limit(1).execute();
}

/** Whether the store holds no organisation yet: a first start. */
export async function isEmpty(db: Db): Promise<boolean> {
  return !(await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst());
}

export function sqlitePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith('sqlite:')) throw new Error(`Unsupported DATABASE_URL "${databaseUrl}": use sqlite:<path> or postgres://….`);
  const file = databaseUrl.slice('sqlite:'.length);
  if (!file || file === ':memory:') throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/ringbook.db.');
  return file;
}

async function migrate(db: Db) {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
