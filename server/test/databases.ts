import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/*
 * The store a test runs on: a SQLite file in the test's folder by default; with TEST_DATABASE=postgres, a database
 * of its own on the PostgreSQL server of TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * created for the test and dropped after it.
 */

export const onPostgres = process.env.TEST_DATABASE === 'postgres';
export const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabase = { url: string; drop(): Promise<void> };

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/*
 * Every test database is a copy of a migrated template (`create database … template`), made once per set of
 * migrations on the server and kept: a test server then opens a store with nothing to migrate, instead of running
 * every migration again (seconds per test file, tens of seconds on a loaded machine). The template's name holds a hash
 * of the migrations' sources (server/db/migrations/), so a changed migration makes a new one; the first process to need it builds
 * it under an advisory lock while the others wait, and it appears under its name only once complete.
 */
let template: Promise<string> | undefined;

async function migratedTemplate(): Promise<string> {
  const { openStore } = await import('../db/database.js');
  const hash = crypto.createHash('sha256');
  const dir = fileURLToPath(new URL('../db/migrations/', import.meta.url));
  for (const file of fs.readdirSync(dir).sort()) hash.update(`${file}\n`).update(fs.readFileSync(path.join(dir, file)));
  const name = `rb_template_${hash.digest('hex').slice(0, 16)}`;
  const exists = (c: pg.Client) => c.query('select 1 from pg_database where datname = $1', [name]).then((r) => r.rowCount === 1);
  return admin(async (c) => {
    if (await exists(c)) return name;
    await c.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await exists(c)) return name;
      const building = `${name}_${process.pid}`;
      await c.query(`drop database if exists ${building} with (force)`);
      await c.query(`create database ${building}`);
      const store = await openStore(urlOf(building));
      await store.close();
      await c.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await c.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

export async function testDatabase(dir: string): Promise<TestDatabase> {
  if (!onPostgres) return { url: `sqlite:${path.join(dir, 'test.db')}`, drop: async () => {} };
  return postgresDatabase();
}

/** A database of its own on the PostgreSQL server of TEST_POSTGRES_URL, whatever TEST_DATABASE says. */
export async function postgresDatabase(): Promise<TestDatabase> {
  const name = `rb_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  template ??= migratedTemplate();
  const from = await template;
  await admin((c) => c.query(`create database ${name} template ${from}`));
  return { url: urlOf(name), drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}) };
}

/** Whether the PostgreSQL server of TEST_POSTGRES_URL answers: a test that needs it skips, saying so, when it does not. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * For a describe that runs only in the PostgreSQL part (TEST_DATABASE=postgres, a server answering): whether it runs,
 * and its title, which says why when it is skipped.
 */
export async function onlyOnPostgres(title: string): Promise<{ skip: boolean; title: string }> {
  if (!onPostgres) return { skip: true, title: `${title} (skipped: runs with TEST_DATABASE=postgres)` };
  if (!(await postgresReachable()))
    return { skip: true, title: `${title} (skipped: no PostgreSQL answers at ${adminUrl}; set TEST_POSTGRES_URL)` };
  return { skip: false, title };
}

/** Tells whether anything was stored between two looks at a test's database (a refused request must store nothing). */
export type WriteWatcher = { version(): Promise<number>; close(): Promise<void> };

/**
 * SQLite: the file's data_version, which changes whenever another connection commits a change. PostgreSQL: a row
 * trigger on every table of the test's database appends to a table of its own, in the writing transaction (so a write
 * rolled back leaves nothing, as on SQLite); the version is that table's row count.
 */
export async function writeWatcher(databaseUrl: string): Promise<WriteWatcher> {
  if (!onPostgres) {
    const { default: SQLite } = await import('better-sqlite3');
    const watcher = new SQLite(databaseUrl.slice('sqlite:'.length), { readonly: true });
    return {
      version: async () => watcher.pragma('data_version', { simple: true }) as number,
      close: async () => {
        watcher.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`
    create table test_writes (at timestamptz not null default now());
    create function test_count_write() returns trigger language plpgsql as $$
      begin insert into test_writes default values; return null; end $$;
    do $$ declare t record; begin
      for t in select tablename from pg_tables where schemaname = 'public' and tablename <> 'test_writes' loop
        execute format('create trigger test_count_write after insert or update or delete on %I for each row execute function test_count_write()', t.tablename);
      end loop;
    end $$;`);
  return {
    version: async () => Number((await client.query('select count(*) as n from test_writes')).rows[0].n),
    close: () => client.end(),
  };
}
