/*
 * What the dialer benchmarks send and how they count what came back: contacts as a CRM sends them, inside calling
 * hours whatever the hour the bench runs at, and the outbox set against what the receiver got.
 */
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { CALLBACK_TYPES } from '../server/contracts/dial-sessions.js';
import { type Db, sqlitePath } from '../server/db/database.js';
import { isPostgresUrl, openPostgres } from '../server/db/postgres-store.js';
import type { Database } from '../server/db/schema.js';
import type { Arrivals } from './callback-receiver.js';

export type NewDialContact = { first_name: string; last_name: string; email: string; phone: string; time_zone: string };

/**
 * A time_zone field ('UTC+3', read as Etc/GMT-3) where it is `hour` o'clock now, so calling hours (08:00-21:00 by
 * default) let every contact be called at any hour the bench runs. The offsets used, UTC-10 to UTC+13, all exist.
 */
export function zoneWhereItIs(hour: number, atMs = Date.now()): string {
  const offset = ((hour - new Date(atMs).getUTCHours() + 34) % 24) - 10;
  return offset === 0 ? 'UTC' : `UTC${offset > 0 ? '+' : '-'}${Math.abs(offset)}`;
}

/**
 * Contact number n of a run: its phone ends in `lastDigit` (the simulated carrier's outcome) and is otherwise unique
 * to n within an area code no other scenario uses; its e-mail is unique to the run.
 */
export function dialContact(run: string, n: number, lastDigit: number, area: string, zone: string): NewDialContact {
  const exchange = 200 + (Math.floor(n / 1000) % 800);
  const line = `${String(n % 1000).padStart(3, '0')}${lastDigit}`;
  return {
    first_name: 'Dial',
    last_name: `Bench ${n}`,
    email: `dial-${run}-${n}@bench.example.com`,
    phone: `${area}${exchange}${line}`,
    time_zone: zone,
  };
}

/** Mostly busy (8) and not in service (9), dispositioned by the server; a tenth each of persons (0) and machines (5). */
export const digitAt = (position: number) => (position % 10 === 0 ? 0 : position % 10 === 5 ? 5 : position % 2 === 0 ? 8 : 9);

export const callbacksTo = (url: string) => CALLBACK_TYPES.map((type) => ({ callback_type: type, callback: `${url}/${type}` }));

export type OutboxEntry = { id: number; session_id: number | null; state: string; created_at_ms: number; delivered_at_ms: number | null };

/** A read-only look at a store beside the servers running on it: the SQLite file opened read-only, or a small pool. */
export type StoreReader = { db: Db; close(): Promise<void> };

export function storeReader(databaseUrl: string): StoreReader {
  if (isPostgresUrl(databaseUrl)) return openPostgres(databaseUrl, { poolSize: 2 });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(sqlitePath(databaseUrl), { readonly: true }) }) });
  return { db, close: () => db.destroy() };
}

/** The outbox rows of some sessions (or all), read beside the running server. */
export async function outboxRows(db: Db, sessionIds?: number[]): Promise<OutboxEntry[]> {
  return db
    .selectFrom('outbox')
    .select(['id', 'session_id', 'state', 'created_at_ms', 'delivered_at_ms'])
    .$if(sessionIds !== undefined, (q) => q.where('session_id', 'in', sessionIds!))
    .orderBy('id')
    .execute();
}

/** Rows of the outbox still to send, of some sessions (or all). */
export async function pendingCount(db: Db, sessionIds?: number[]): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending')
    .$if(sessionIds !== undefined, (q) => q.where('session_id', 'in', sessionIds!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type Tally = {
  acknowledged: number;
  delivered: number;
  duplicated: number;
  lost: number;
  /** The outbox ids of the lost. */
  lostIds: number[];
  /** Arrivals whose webhook-id is no row of these sessions' outbox (should be none). */
  strangers: number;
  /** Receiver's first arrival of each delivered row minus the row's created_at_ms, sorted. */
  latencies: number[];
  firstArrival: number;
  lastArrival: number;
};

export function tally(rows: OutboxEntry[], arrivals: Arrivals): Tally {
  const ids = new Set(rows.map((r) => `msg_${r.id}`));
  let delivered = 0;
  let duplicated = 0;
  let firstArrival = Infinity;
  let lastArrival = -Infinity;
  const latencies: number[] = [];
  const lostIds: number[] = [];
  for (const row of rows) {
    const times = arrivals.get(`msg_${row.id}`);
    if (!times) {
      lostIds.push(row.id);
      continue;
    }
    delivered++;
    duplicated += times.length - 1;
    latencies.push(times[0]! - row.created_at_ms);
    firstArrival = Math.min(firstArrival, times[0]!);
    lastArrival = Math.max(lastArrival, ...times);
  }
  latencies.sort((a, b) => a - b);
  const strangers = [...arrivals.keys()].filter((id) => !ids.has(id)).length;
  return {
    acknowledged: rows.length,
    delivered,
    duplicated,
    lost: lostIds.length,
    lostIds,
    strangers,
    latencies,
    firstArrival,
    lastArrival,
  };
}

export const loadAverage = () => {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
};
