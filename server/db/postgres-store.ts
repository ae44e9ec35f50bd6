import crypto from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { closeBatch, dropBatch, openBatch } from './batch-end.js';
import { CommitUncertain, isPostgresUnavailable, StoreUnreachable } from './dialect.js';
import { LATER, statementsOf } from './later.js';
import { pipelined, type Statement } from './pipeline.js';
import { preparedTexts } from './prepared.js';
import type { Database } from './schema.js';

/*
 * The scale-out store: PostgreSQL, shared by any number of server processes on any number of machines. There is no
 * single writer: each write is a transaction of its own on a pooled connection, and the database arbitrates between
 * writers (row locks, unique constraints, advisory locks: docs/store.md). A transaction PostgreSQL aborts to keep
 * its promises (a serialization failure, a deadlock) is run again from the start, a few times, with a short
 * randomized pause: `work` must therefore do nothing outside the transaction it is given.
 *
 * A lost database (restarted, failed over, unreachable): the pool discards a connection that broke and opens new ones
 * as they are asked for, so the store recovers by itself once the database is back; meanwhile a request fails within
 * the connect time-out (503, lib/http.ts), never hangs. A transaction that lost its connection before its commit was
 * sent committed nothing and is run again once; one that lost it during its commit may or may not have committed, and
 * fails as `CommitUncertain`, never reported as done (docs/store.md, "A lost database").
 */

/* int8 (counts, sums) and numeric as numbers, as SQLite answers them; the values here stay far below 2^53. */
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

const RETRIES = 5;
/** serialization_failure, deadlock_detected: the transaction may simply be run again. */
const RETRYABLE = new Set(['40001', '40P01']);
/** A write that lost its connection before its commit is run again this many times (on a new connection). */
const RECONNECT_RETRIES = 1;
/** How long a request waits for a connection (a new one, or a pooled one to be free) before it fails with 503. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Longest statement of a request or a background chunk; migrations run without it. */
const STATEMENT_TIMEOUT_MS = 30_000;
/** A transaction left open by a stalled process gives its locks back after this long. */
const IDLE_IN_TRANSACTION_MS = 60_000;

export type PostgresOptions = { poolSize?: number; statementTimeoutMs?: number };

export function openPostgres(url: string, options: PostgresOptions = {}) {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    // A connection whose peer vanished without closing it (a machine or network gone) is found out, not waited on.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A pooled client whose server went away emits 'error': the pool's own listener covers an idle one, nobody's a client
  // in use between two queries, and an unheard 'error' would end the process. The next query on it fails instead.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Whatever stops a connection being had (refused, starting up, not accepting connections, the time-out) is one kind.
  const connections: PostgresPool = {
    connect: () => pool.connect().then(pooledConnection, (error: unknown) => Promise.reject(new StoreUnreachable(error))),
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: connections }) });
  return {
    db,
    async write<T>(work: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
      let reconnects = 0;
      for (let attempt = 1; ; attempt++) {
        let committing = false;
        try {
          return await db.transaction().execute(async (tx) => {
            openBatch(tx);
            try {
              const result = await work(tx);
              await closeBatch(tx);
              // What is held goes with the commit (pooledConnection): a failure of it fails the commit, and the write.
              committing = true;
              return result;
            } finally {
              dropBatch(tx);
            }
          });
        } catch (error) {
          if (isPostgresUnavailable(error)) {
            // Lost at the commit: it may have been applied. Never run again, never reported as done.
            if (committing) throw new CommitUncertain(error);
            if (reconnects++ < RECONNECT_RETRIES && !(error instanceof StoreUnreachable)) continue;
            throw error;
          }
          if (attempt >= RETRIES || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        }
      }
    },
    close: () => db.destroy(),
  };
}

/**
 * A pooled connection as the store uses it.
 * - The prepared queries' SQL (prepared.ts) runs as named statements: each connection parses and plans one once and
 *   then only binds and executes it (an unnamed statement is parsed and planned at every execution). Other SQL
 *   (one-off statements, migrations, DDL) stays unnamed, so what a connection keeps is bounded by the queries' shapes.
 * - A transaction's BEGIN, and statements sent with `insertLater` or `runLater` (later.ts), are held: they go with the
 *   next other statement, in one round trip (pipeline.ts). So the commit carries what is left, and a rollback drops
 *   what is held (it would be undone anyway); a connection given back holds nothing.
 */
function pooledConnection(client: pg.PoolClient): PostgresPoolClient {
  let begin: string | undefined;
  let held: { text: string; values: readonly unknown[] }[] = [];
  const send = ({ text, values, name }: Statement) =>
    name ? client.query({ name, text, values: values as unknown[] }) : client.query(text, values as unknown[]);
  // What is held, in order: the BEGIN, then the held statements (several inserts into distinct tables as one: later.ts).
  const takeHeld = (): Statement[] => {
    const statements: Statement[] = begin ? [{ text: begin, values: [] }] : [];
    for (const statement of statementsOf(held)) statements.push(named(statement));
    begin = undefined;
    held = [];
    return statements;
  };
  const run = async (text: string, values: readonly unknown[] = []) => {
    if (text.startsWith(LATER)) {
      held.push({ text: text.slice(LATER.length), values });
      return NOTHING_YET;
    }
    if (TRANSACTION_START.test(text) && !begin && !held.length) {
      begin = text;
      return NOTHING_YET;
    }
    if (/^rollback$/i.test(text)) {
      held = [];
      // Nothing was sent since the BEGIN: there is no transaction to roll back.
      if (begin) {
        begin = undefined;
        return NOTHING_YET;
      }
    }
    const statement = named({ text, values });
    const before = takeHeld();
    if (!before.length) return send(statement);
    const results = await pipelined(client, [...before, statement]);
    return results[results.length - 1];
  };
  const query = (textOrCursor: unknown, values?: readonly unknown[]) => {
    if (typeof textOrCursor === 'string') return run(textOrCursor, values);
    // A cursor is answered at once (a reader reads it as it goes): what is held goes first, queued on the connection in
    // order (a failure there fails the cursor's statement too: the transaction is aborted).
    const before = takeHeld();
    if (before.length) pipelined(client, before).catch(() => undefined);
    return client.query(textOrCursor as pg.Submittable);
  };
  return {
    query: query as unknown as PostgresPoolClient['query'],
    release: () => {
      begin = undefined;
      held = [];
      client.release();
    },
  };
}

/** How Kysely opens a transaction (with or without an isolation level or access mode). */
const TRANSACTION_START = /^(begin|start transaction)\b/i;

/** The answer to a statement held: no rows, and no count (Kysely reads none). */
const NOTHING_YET = { command: 'LATER', rowCount: null, rows: [] };

/** Held inserts that are all prepared queries make the same text each time they come together: it is named too, for
 * the first so many such texts (a bound on what a connection keeps). */
const MERGED_NAMED = 256;
let mergedNamed = 0;

/** A statement as it is sent: named when it is a prepared query's SQL, or held prepared inserts sent together. */
function named({ text, values, parts }: ReturnType<typeof statementsOf>[number]): Statement {
  if (parts && mergedNamed < MERGED_NAMED && !preparedTexts.has(text) && parts.every((p) => preparedTexts.has(p.text))) {
    mergedNamed++;
    preparedTexts.add(text);
  }
  return preparedTexts.has(text) ? { text, values, name: statementName(text) } : { text, values };
}

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `rb_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);
