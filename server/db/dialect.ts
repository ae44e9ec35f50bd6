import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';

/*
 * The few places where the two stores' SQL differs at run time, each said once: which store a connection is, and a
 * JSON list passed as one parameter (so a statement has one shape however many items it takes).
 */

export const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name.startsWith('Postgres');

/**
 * Rows a hot count (contact_counts) is spread over: on PostgreSQL concurrent writers to one partition each add to a
 * stripe of their own, rather than wait in turn for one row's lock until their commits; SQLite's single writer has
 * nothing to spread.
 */
export const countStripes = (db: Kysely<any>) => (isPostgres(db) ? 8 : 1);

/** `(select …)` of the integers of a JSON list parameter, for `in`. */
export const idsOfJson = (db: Kysely<any>, list: Expression<unknown> | unknown): RawBuilder<number> =>
  isPostgres(db)
    ? sql<number>`(select value::integer from json_array_elements_text(cast(${list} as json)))`
    : sql<number>`(select value from json_each(${list}))`;

/** A JSON list of rows (lists) as a table `j`, for `insert … select`. */
export const rowsOfJson = (db: Kysely<any>, rows: Expression<unknown> | unknown) =>
  (isPostgres(db) ? sql`json_array_elements(cast(${rows} as json))` : sql`json_each(${rows})`).as('j');

/** Column `i` of a row of `rowsOfJson`, as an integer or as text. */
export const jsonColumn = (db: Kysely<any>, i: number, type: 'integer' | 'text') =>
  isPostgres(db) ? sql.raw(type === 'integer' ? `(j.value ->> ${i})::integer` : `j.value ->> ${i}`) : sql.raw(`j.value ->> ${i}`);

/** A JSON list of a column's values over a subquery's rows ('[]' when none). */
export const jsonListOf = (db: Kysely<any>, column: string) =>
  isPostgres(db) ? sql<string>`coalesce(json_agg(${sql.ref(column)})::text, '[]')` : sql<string>`json_group_array(${sql.ref(column)})`;

/** PostgreSQL's class 23 (integrity constraint violation): a unique key, a reference, a not-null or a check. */
export const isPostgresConstraintError = (error: unknown) => /^23\d{3}$/.test(String((error as { code?: unknown })?.code ?? ''));

/** Node's socket errors that mean the database's machine could not be reached or the connection broke. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** What pg says, with no code, when a connection ends under it or a client that lost one is used again. */
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

/**
 * No connection could be had from the pool: PostgreSQL is down, starting up or shutting down, refuses connections to
 * this database, or every pooled connection stayed busy past the connect time-out. Nothing was sent.
 */
export class StoreUnreachable extends Error {
  constructor(cause: unknown) {
    super(`The store could not be reached: ${(cause as Error | undefined)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * The connection was lost while a transaction's commit was under way: PostgreSQL may or may not have committed it.
 * It is not run again, and not reported as done.
 */
export class CommitUncertain extends Error {
  constructor(cause: unknown) {
    super(`The connection was lost during a commit: ${(cause as Error | undefined)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * PostgreSQL could not be reached or is going away (connection refused or reset, class 08, admin shutdown and "cannot
 * connect now" 57P01-57P03, too many connections 53300, a connection ended under a query): a statement failed before
 * any commit, so the request changed nothing and may be tried again. (A lost commit is `CommitUncertain`, not this.)
 */
export const isPostgresUnavailable = (error: unknown) => {
  if (error instanceof StoreUnreachable) return true;
  const code = String((error as { code?: unknown })?.code ?? '');
  return (
    /^08\d{3}$/.test(code) ||
    /^57P0[123]$/.test(code) ||
    code === '53300' ||
    SOCKET_ERRORS.has(code) ||
    (!code && LOST_CONNECTION.test(String((error as { message?: unknown })?.message ?? '')))
  );
};

/** The database was lost under a statement or a commit: not the work's fault, and no reason to count it against it. */
export const isStoreLost = (error: unknown) => error instanceof CommitUncertain || isPostgresUnavailable(error);

/** A statement ran past `statement_timeout` (57014): cancelled, its transaction rolled back. */
export const isPostgresTimeout = (error: unknown) => (error as { code?: unknown })?.code === '57014';

/**
 * After rows were written with ids of their own (a bulk load, a copy), the ids the table gives next follow the highest:
 * PostgreSQL's identity sequence is moved past it (SQLite's AUTOINCREMENT already follows the rows it holds).
 */
export async function followWrittenIds(db: Kysely<any>, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest(1, (select coalesce(max(id), 0) from ${sql.table(table)})))`.execute(
    db,
  );
}

/**
 * Readies these tables for a bulk load and answers what finishes it, to run once the rows are in. SQLite: the writer
 * gets a page cache large enough for the indexes (with a small one, index pages are written and re-read over and over).
 * PostgreSQL: the tables' secondary indexes (neither unique nor a constraint's) are dropped and built again after the
 * load, each in one pass, instead of kept up row by row (its cache is the server's own).
 */
export async function prepareBulkLoad(db: Kysely<any>, tables: string[]): Promise<(db: Kysely<any>) => Promise<void>> {
  if (!isPostgres(db)) {
    await sql`pragma cache_size = -1048576`.execute(db);
    return async () => {};
  }
  const { rows } = await sql<{ name: string; definition: string }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = any(cast(${tables} as regclass[])) and not i.indisunique and not i.indisprimary
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`.execute(db);
  for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(db);
  return async (tx) => {
    for (const { definition } of rows) await sql.raw(definition).execute(tx);
  };
}
