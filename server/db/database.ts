import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import * as initial from './migrations/0001-initial.js';

export type Db = Kysely<Database>;

export type Store = {
  db: Db;
  /** Runs `work` as one write transaction (BEGIN IMMEDIATE on SQLite) and commits only if it returns. */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

const migrations: Record<string, Migration> = { '0001-initial': initial };

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Opens the store named by a `sqlite:<path>` URL and applies pending migrations. */
export async function openStore(databaseUrl: string): Promise<Store> {
  const file = sqlitePath(databaseUrl);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return {
    db,
    write: (work) => writeSqlite(db, work),
    close: () => db.destroy(),
  };
}

export function sqlitePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith('sqlite:')) throw new Error(`Unsupported DATABASE_URL "${databaseUrl}": use sqlite:<path>.`);
  const file = databaseUrl.slice('sqlite:'.length);
  if (!file) throw new Error('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/ringbook.db.');
  return file;
}

async function migrate(db: Db) {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/*
 * SQLite's default BEGIN takes the write lock only at the first write, so two transactions that read then
 * write can deadlock into SQLITE_BUSY. BEGIN IMMEDIATE takes it up front; busy_timeout makes other processes
 * (the admin command) wait for it. Kysely's SQLite driver has one connection behind a mutex, so holding it
 * here serialises this process's transactions.
 */
async function writeSqlite<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}
