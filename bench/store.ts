/*
 * Where a bench run keeps its store: a SQLite file in a folder of its own (the default), or, with
 * `--database postgres://…`, a database of its own created on that PostgreSQL server for the run and dropped after it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadSecretKey } from '../server/auth/secret-key.js';
import { isPostgresUrl } from '../server/db/postgres-store.js';

export type BenchStore = {
  /** The servers' DATABASE_URL. */
  url: string;
  /** What the log says the store is. */
  where: string;
  /** The key the servers derive tokens from, and the bench with them. */
  secretKey: Buffer;
  /** What the servers are given beside DATABASE_URL: SECRET_KEY on PostgreSQL (required there). */
  env: NodeJS.ProcessEnv;
  /** How large the store is now, in bytes. */
  size(): Promise<number>;
  /** Removes the store, unless `keep` (then says where it stays). */
  remove(keep: boolean, log: (line: string) => void): Promise<void>;
};

/** Folder and database names a bench store is made under. */
const PREFIX = 'ringbook-bench-';

/** A fresh SQLite file in a folder of its own, whose key is the file beside it (as a server's on the embedded store). */
export function sqliteBenchStore(prefix = PREFIX): BenchStore & { file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'bench.db');
  return {
    file,
    url: `sqlite:${file}`,
    where: file,
    secretKey: loadSecretKey(undefined, file),
    env: {},
    size: async () => fs.statSync(file).size,
    remove: async (keep, log) => {
      if (keep) log(`Kept ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `postgres://…/any` → the same server's URL with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the PostgreSQL server of `serverUrl` (whose own database is where it is created from), with
 * a random SECRET_KEY for the run's servers.
 */
export async function postgresBenchStore(serverUrl: string): Promise<BenchStore> {
  if (!isPostgresUrl(serverUrl)) throw new Error(`--database takes a postgres:// URL, not '${serverUrl}'.`);
  const name = `${PREFIX.replaceAll('-', '_')}${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  await onServer(serverUrl, (c) => c.query(`create database ${name}`));
  const url = databaseUrl(serverUrl, name);
  const key = crypto.randomBytes(32).toString('base64');
  return {
    url,
    where: `database ${name} on ${new URL(serverUrl).host}`,
    secretKey: loadSecretKey(key, ''),
    env: { SECRET_KEY: key },
    size: () => onServer(url, async (c) => Number((await c.query('select pg_database_size(current_database()) as n')).rows[0].n)),
    remove: async (keep, log) => {
      if (keep) log(`Kept ${url}`);
      else await onServer(serverUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
