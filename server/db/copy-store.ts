import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { type Db, migrations, openStore, sqlitePath, type Store } from './database.js';
import { isPostgres } from './dialect.js';
import { isPostgresUrl, openPostgres } from './postgres-store.js';

/*
 * `npm run admin -- copy-store --from sqlite:<file> --to postgres://…` (docs/store.md, "Moving an existing store"):
 * every row of every table the migrations made, from a SQLite store to a new, empty store of either kind.
 *
 * - The tables are the source's own (its schema, not a list here), less SQLite's bookkeeping, the migrator's and the
 *   derived indexes; a table the target lacks, or a column, stops the copy before anything is written. The derived
 *   indexes (the contacts' search, the transcripts' words) are each store's own kind of table: they are rebuilt on
 *   the target by their modules' index functions, from the copied rows, never copied.
 * - The source is opened read-only and read in one read transaction (a snapshot: a server may keep running on it),
 *   streamed a row at a time; rows go to the target in batches of up to 1,000, a transaction each.
 * - Tables go in the order of their references (a parent table before the tables that refer to it); a table that
 *   refers to itself (members and folders, by parent_id) is read parents first.
 * - The target's identity sequences are set past the highest id the source ever gave (its sqlite_sequence, which
 *   remembers deleted rows' ids too), so a new row never takes an id an old one had.
 * - Afterwards the rows of each table, and each organisation's contacts and calls, are counted on both sides.
 */

/** The target holds data, the source is not a store of this version, or (`badArguments`) the arguments are wrong: exit code 2. */
export class CopyRefused extends Error {
  constructor(
    message: string,
    readonly badArguments = false,
  ) {
    super(message);
  }
}

/** An index derived from copied rows, which each store keeps its own way: rebuilt on the target, a chunk per transaction. */
export type DerivedIndex = {
  name: string;
  /** Its tables, under the names either store gives them. */
  tables: readonly string[];
  /** Indexes the next chunk after `afterId`, answering how many and the last id, or null when none is left. */
  indexAfter(tx: Db, afterId: number): Promise<{ count: number; lastId: number } | null>;
  /** Settles what rebuilding it in large transactions left owing (full-text merges), so that later writes do not pay it. */
  settle?(store: Store): Promise<void>;
};

export type CopyOptions = { from: string; to: string; derived: readonly DerivedIndex[]; print(line: string): void };

/** What the count check found: one line per table and per organisation, and whether every figure agrees. */
export type CopyResult = { counts: CountLine[]; ok: boolean };
type CountLine = { what: string; source: number; target: number };

/** Rows per insert: at most 1,000, and fewer for wide tables (SQLite takes at most 32,766 parameters a statement). */
const BATCH_ROWS = 1_000;
const BATCH_PARAMETERS = 30_000;
/** The migrator's bookkeeping: the target has its own, written by the same migrations. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
/** What makes a store hold data: a target holding any of these is refused. */
const DATA_TABLES = ['organisations', 'members', 'contacts'] as const;

/** The store a URL names, as a `--from` or `--to` argument: SQLite's file or PostgreSQL. */
export function parseStoreUrl(flag: string, url: string | undefined): { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string } {
  if (!url) throw new CopyRefused(`${flag} is required`, true);
  if (isPostgresUrl(url)) return { kind: 'postgres', url };
  if (!url.startsWith('sqlite:')) throw new CopyRefused(`${flag} "${url}": use sqlite:<file> or postgres://user@host:port/database`, true);
  try {
    return { kind: 'sqlite', file: path.resolve(sqlitePath(url)) };
  } catch (error) {
    throw new CopyRefused(`${flag}: ${(error as Error).message}`, true);
  }
}

function checkArguments(from: string | undefined, to: string | undefined): { sourceFile: string } {
  const source = parseStoreUrl('--from', from);
  const target = parseStoreUrl('--to', to);
  if (source.kind !== 'sqlite')
    throw new CopyRefused('--from: copying from PostgreSQL is not supported yet; the source is a sqlite:<file>', true);
  if (target.kind === 'sqlite' ? target.file === source.file : false) throw new CopyRefused('--from and --to name the same store', true);
  if (!fs.existsSync(source.file)) throw new CopyRefused(`--from: no such file ${source.file}`);
  return { sourceFile: source.file };
}

export async function copyStore(options: CopyOptions): Promise<CopyResult> {
  const { sourceFile } = checkArguments(options.from, options.to);
  const { print } = options;
  const source = new SQLite(sourceFile, { readonly: true, fileMustExist: true });
  try {
    // One snapshot for the whole copy and its counts: what a server writes meanwhile is in neither.
    source.exec('begin');
    checkSourceVersion(source);
    const derivedTables = new Set(options.derived.flatMap((d) => d.tables));
    const tables = sourceTables(source, derivedTables);
    await refuseIfHoldsData(options.to);
    const target = await openStore(options.to);
    try {
      // Again once migrated, in case another copy or a server got there between the two looks.
      await refuseIfHoldsData(options.to, target.db);
      const targetColumns = await columnsOf(target.db, derivedTables);
      checkTargetHasEveryColumn(tables, targetColumns);
      print(`copying ${tables.length} tables from ${sourceFile} to ${redacted(options.to)}`);
      try {
        await clearMigrationRows(target, tables, print);
        for (const table of tables) await copyTable(source, target, table, targetColumns.get(table.name)!, print);
        const issued = issuedIds(source, tables);
        await target.write((tx) => setIdentities(tx, issued));
        for (const index of options.derived) await rebuild(target, index, print);
      } catch (error) {
        print(`the copy stopped half-way: ${redacted(options.to)} holds part of it; drop it and create it again before copying again`);
        throw error;
      }
      const counts = await compareCounts(source, target.db, tables);
      const recordings = counts.find((c) => c.what === 'recordings')?.source ?? 0;
      if (recordings) {
        print(
          `recordings: ${recordings} rows copied; their audio files are not: they stay in ${path.dirname(sourceFile)} (the data directory). ` +
            `Start the server on the new store with DATA_DIR=${path.dirname(sourceFile)}, or move the files to its data directory.`,
        );
      }
      const keyFile = `${sourceFile}.key`;
      if (fs.existsSync(keyFile)) {
        print(
          `personal tokens are derived from the server key: if the source's servers ran without SECRET_KEY (its key file ${keyFile}), ` +
            `start the new store's with SECRET_KEY=base64:<the contents of ${keyFile}> and its tokens stay the same.`,
        );
      }
      return { counts, ok: counts.every((c) => c.source === c.target) };
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** A URL as printed: without its password. */
const redacted = (url: string) => url.replace(/(\/\/[^:/@]*):[^@/]*@/, '$1:***@');

function checkSourceVersion(source: SQLite.Database) {
  const known = Object.keys(migrations);
  const hasMigrations = source.prepare(`select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'`).get();
  if (!hasMigrations) throw new CopyRefused('--from: not a Ringbook store (it has no migrations)');
  const applied = (source.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
  const missing = known.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length)
    throw new CopyRefused(
      `--from: the store has migrations this version does not know (${unknown.join(', ')}): copy it with the version that wrote it`,
    );
  if (missing.length)
    throw new CopyRefused(
      `--from: the store lacks migrations ${missing.join(', ')}: start this version's server on it once (it migrates), then copy`,
    );
}

type SourceTable = {
  name: string;
  columns: string[];
  hasId: boolean;
  /** A column referring to the table's own ids (a tree): rows are read parents first. */
  parentColumn?: string;
};

type TableListRow = { name: string; type: string };

/**
 * The source's tables in the order of their references. Left out: SQLite's own (sqlite_%), the migrator's, the derived
 * indexes and the FTS5 tables' shadow tables. A virtual table that is not a derived index stops the copy: nothing
 * would rebuild it.
 */
function sourceTables(source: SQLite.Database, derived: Set<string>): SourceTable[] {
  const listed = source.prepare(`select name, type from pragma_table_list where schema = 'main' order by name`).all() as TableListRow[];
  const tables: SourceTable[] = [];
  const references = new Map<string, Set<string>>();
  for (const { name, type } of listed) {
    if (name.startsWith('sqlite_') || MIGRATOR_TABLES.has(name) || derived.has(name) || type === 'shadow') continue;
    if (type !== 'table')
      throw new CopyRefused(`--from: table ${name} (${type}) is neither a table to copy nor a derived index that is rebuilt`);
    const columns = (source.prepare('select name from pragma_table_info(?) order by cid').all(name) as { name: string }[]).map(
      (c) => c.name,
    );
    const foreign = source.prepare('select "table" as parent, "from" as col from pragma_foreign_key_list(?)').all(name) as {
      parent: string;
      col: string;
    }[];
    const own = foreign.filter((f) => f.parent === name);
    if (own.length > 1) throw new CopyRefused(`table ${name} refers to itself by more than one column: not supported`);
    references.set(name, new Set(foreign.filter((f) => f.parent !== name).map((f) => f.parent)));
    tables.push({ name, columns, hasId: columns.includes('id'), parentColumn: own[0]?.col });
  }
  return inReferenceOrder(tables, references);
}

/** Each table after the tables it refers to; a cycle between tables stops the copy. */
function inReferenceOrder(tables: SourceTable[], references: Map<string, Set<string>>): SourceTable[] {
  const ordered: SourceTable[] = [];
  const placed = new Set<string>();
  let rest = tables;
  while (rest.length) {
    const ready = rest.filter((t) => [...references.get(t.name)!].every((parent) => placed.has(parent) || !references.has(parent)));
    if (!ready.length) throw new CopyRefused(`tables refer to one another in a cycle: ${rest.map((t) => t.name).join(', ')}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    rest = rest.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

/** How a value must be written into a target column: as it is, as an integer, or as bytes. */
type ColumnKind = 'integer' | 'bytes' | 'other';

/** The target's tables and each one's columns (what the migrations made there), less the derived indexes. */
async function columnsOf(db: Db, derived: Set<string>): Promise<Map<string, Map<string, ColumnKind>>> {
  const rows = isPostgres(db)
    ? (
        await sql<{ table_name: string; name: string; type: string }>`
        select c.table_name, c.column_name as name, c.data_type as type from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema = current_schema()`.execute(db)
      ).rows
    : (
        await sql<{ table_name: string; name: string; type: string }>`
        select l.name as table_name, c.name, c.type from pragma_table_list l join pragma_table_info(l.name) c
        where l.schema = 'main' and l.type = 'table'`.execute(db)
      ).rows;
  const tables = new Map<string, Map<string, ColumnKind>>();
  for (const row of rows) {
    if (derived.has(row.table_name) || MIGRATOR_TABLES.has(row.table_name) || row.table_name.startsWith('sqlite_')) continue;
    const type = row.type.toLowerCase();
    const kind: ColumnKind = /int/.test(type) ? 'integer' : type === 'bytea' || type === 'blob' ? 'bytes' : 'other';
    if (!tables.has(row.table_name)) tables.set(row.table_name, new Map());
    tables.get(row.table_name)!.set(row.name, kind);
  }
  return tables;
}

/** Every source table and column has its place on the target, and the target has no table the source lacks. */
function checkTargetHasEveryColumn(tables: SourceTable[], target: Map<string, Map<string, ColumnKind>>) {
  const problems: string[] = [];
  for (const table of tables) {
    const columns = target.get(table.name);
    if (!columns) problems.push(`the target has no table ${table.name}`);
    else for (const column of table.columns) if (!columns.has(column)) problems.push(`the target's ${table.name} has no column ${column}`);
  }
  const names = new Set(tables.map((t) => t.name));
  for (const name of target.keys()) if (!names.has(name)) problems.push(`the source has no table ${name} (the target's)`);
  if (problems.length) throw new Error(`The two stores' schemas differ, nothing was copied:\n  ${problems.join('\n  ')}`);
}

/**
 * Refuses a target that holds an organisation, a member or a contact. Before migrating (`db` absent) it looks without
 * writing anything: an older store holding data is not migrated by a copy that then refuses it.
 */
async function refuseIfHoldsData(url: string, db?: Db): Promise<void> {
  const holds = db ? await holdsData(db) : await lookWithoutMigrating(url);
  if (holds)
    throw new CopyRefused(`--to ${redacted(url)} already holds ${holds}: a copy goes into an empty store only; nothing was written`);
}

async function lookWithoutMigrating(url: string): Promise<string | null> {
  if (isPostgresUrl(url)) {
    const store = openPostgres(url, { poolSize: 1 });
    try {
      return await holdsData(store.db);
    } finally {
      await store.close();
    }
  }
  const file = sqlitePath(url);
  if (!fs.existsSync(file)) return null;
  const sqlite = new SQLite(file, { readonly: true });
  try {
    for (const table of DATA_TABLES) {
      if (!sqlite.prepare(`select 1 from sqlite_schema where type = 'table' and name = ?`).get(table)) continue;
      if (sqlite.prepare(`select 1 from ${table} limit 1`).get()) return table;
    }
    return null;
  } finally {
    sqlite.close();
  }
}

/** Which of organisations, members and contacts holds a row (a table not yet made holds none). */
async function holdsData(db: Kysely<any>): Promise<string | null> {
  for (const table of DATA_TABLES) {
    const exists = isPostgres(db)
      ? (await sql<{ t: string | null }>`select to_regclass(${table}) as t`.execute(db)).rows[0]?.t
      : (await sql`select 1 from sqlite_schema where type = 'table' and name = ${table}`.execute(db)).rows.length;
    if (
      exists &&
      (
        await db
          .selectFrom(table)
          .select(sql`1`.as('one'))
          .limit(1)
          .execute()
      ).length
    )
      return table;
  }
  return null;
}

/**
 * Some migrations write rows of their own (the system's disposition sets and voicemails): the source has them too,
 * under the same ids, as the migrations and then its members left them. The target's are deleted, children first, in
 * one transaction, and the source's copied in their place.
 */
async function clearMigrationRows(target: Store, tables: SourceTable[], print: (line: string) => void) {
  const cleared: string[] = [];
  await target.write(async (tx) => {
    for (const table of [...tables].reverse()) {
      const { numDeletedRows } = await (tx as Kysely<any>).deleteFrom(table.name).executeTakeFirst();
      if (numDeletedRows) cleared.push(`${table.name} (${numDeletedRows})`);
    }
  });
  if (cleared.length) print(`the migrations' own rows of ${cleared.join(', ')} are replaced by the source's`);
}

/** A table's rows, streamed from the snapshot: by id, and for a tree parents first (a row's depth below its root). */
function readRows(source: SQLite.Database, table: SourceTable): IterableIterator<unknown[]> {
  const name = quoted(table.name);
  const columns = table.columns.map((c) => `t.${quoted(c)}`).join(', ');
  let text = `select ${columns} from ${name} t${table.hasId ? ' order by t.id' : ''}`;
  if (table.parentColumn) {
    const parent = quoted(table.parentColumn);
    text = `with recursive tree(id, depth) as (
        select id, 0 from ${name} where ${parent} is null or ${parent} not in (select id from ${name})
        union all select c.id, tree.depth + 1 from ${name} c join tree on c.${parent} = tree.id)
      select ${columns} from ${name} t join tree on tree.id = t.id order by tree.depth, t.id`;
  }
  return source.prepare(text).raw(true).iterate() as IterableIterator<unknown[]>;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A value as the target's column takes it. SQLite keeps whatever it was given: a number with a fraction in an integer
 * column (wake times once had one) is rounded for PostgreSQL's integer types; bytes come as Buffers both ways.
 */
function converter(kinds: ColumnKind[]): { convert(row: unknown[]): unknown[]; rounded: number } {
  const state = {
    rounded: 0,
    convert(row: unknown[]) {
      for (let i = 0; i < row.length; i++) {
        const value = row[i];
        if (kinds[i] === 'integer' && typeof value === 'number' && !Number.isInteger(value)) {
          row[i] = Math.round(value);
          state.rounded++;
        } else if (kinds[i] === 'bytes' && typeof value === 'string') {
          row[i] = Buffer.from(value, 'utf8');
        }
      }
      return row;
    },
  };
  return state;
}

async function copyTable(
  source: SQLite.Database,
  target: Store,
  table: SourceTable,
  targetColumns: Map<string, ColumnKind>,
  print: (line: string) => void,
) {
  const started = Date.now();
  const perInsert = Math.max(1, Math.min(BATCH_ROWS, Math.floor(BATCH_PARAMETERS / table.columns.length)));
  const values = converter(table.columns.map((c) => targetColumns.get(c)!));
  const total = (source.prepare(`select count(*) as n from ${quoted(table.name)}`).get() as { n: number }).n;
  const insert = (rows: unknown[][]) =>
    target.write(async (tx) => {
      await (tx as Kysely<any>)
        .insertInto(table.name)
        .values(rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]]))))
        .execute();
    });
  let copied = 0;
  let batch: unknown[][] = [];
  let reported = started;
  for (const row of readRows(source, table)) {
    batch.push(values.convert(row));
    if (batch.length < perInsert) continue;
    await insert(batch);
    copied += batch.length;
    batch = [];
    if (Date.now() - reported >= 5_000) {
      reported = Date.now();
      print(`  ${table.name}: ${copied.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`);
    }
  }
  if (batch.length) await insert(batch);
  copied += batch.length;
  const rounded = values.rounded ? `, ${values.rounded} fractional integers rounded` : '';
  print(`${table.name}: ${copied.toLocaleString('en-US')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s${rounded}`);
}

/** The highest id each table with ids ever gave: its sqlite_sequence entry (deleted rows' ids too), or its highest row. */
function issuedIds(source: SQLite.Database, tables: SourceTable[]): Map<string, number> {
  const hasSequence = source.prepare(`select 1 from sqlite_schema where name = 'sqlite_sequence'`).get();
  const sequence = new Map(
    hasSequence
      ? (source.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map((r) => [r.name, r.seq])
      : [],
  );
  const issued = new Map<string, number>();
  for (const table of tables.filter((t) => t.hasId)) {
    const highest = (source.prepare(`select coalesce(max(id), 0) as n from ${quoted(table.name)}`).get() as { n: number }).n;
    issued.set(table.name, Math.max(highest, sequence.get(table.name) ?? 0));
  }
  return issued;
}

/**
 * Sets the target's identities past the ids the source gave: PostgreSQL's identity sequences (setval), SQLite's
 * sqlite_sequence (explicit ids already moved it to the highest copied; this adds the ids of rows deleted before).
 */
async function setIdentities(db: Db, issued: Map<string, number>) {
  if (isPostgres(db)) {
    const { rows } = await sql<{ table_name: string }>`select table_name from information_schema.columns
      where table_schema = current_schema() and column_name = 'id' and is_identity = 'YES'`.execute(db);
    const identities = new Set(rows.map((r) => r.table_name));
    const entries = [...issued].filter(([table, id]) => identities.has(table) && id > 0);
    if (entries.length) {
      await sql`select setval(pg_get_serial_sequence(j.value ->> 0, 'id'), (j.value ->> 1)::bigint)
        from json_array_elements(cast(${JSON.stringify(entries)} as json)) j`.execute(db);
    }
    return;
  }
  const entries = [...issued].filter(([, id]) => id > 0);
  if (!entries.length) return;
  const json = JSON.stringify(entries);
  await sql`insert into sqlite_sequence (name, seq) select j.value ->> 0, 0 from json_each(${json}) j
    where j.value ->> 0 not in (select name from sqlite_sequence)`.execute(db);
  await sql`update sqlite_sequence set seq = max(seq, (select j.value ->> 1 from json_each(${json}) j where j.value ->> 0 = sqlite_sequence.name))
    where name in (select j.value ->> 0 from json_each(${json}) j)`.execute(db);
}

async function rebuild(target: Store, index: DerivedIndex, print: (line: string) => void) {
  const started = Date.now();
  let total = 0;
  for (let after = 0; ;) {
    const done = await target.write((tx) => index.indexAfter(tx, after));
    if (!done) break;
    total += done.count;
    after = done.lastId;
  }
  await index.settle?.(target);
  print(`${index.name}: rebuilt for ${total.toLocaleString('en-US')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Rows of every copied table, and each organisation's contacts and calls, on both sides (the source in its snapshot). */
async function compareCounts(source: SQLite.Database, target: Kysely<any>, tables: SourceTable[]): Promise<CountLine[]> {
  const lines: CountLine[] = [];
  for (const table of tables) {
    const sourceRows = (source.prepare(`select count(*) as n from ${quoted(table.name)}`).get() as { n: number }).n;
    const targetRows = (
      await target
        .selectFrom(table.name)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    lines.push({ what: table.name, source: sourceRows, target: Number(targetRows) });
  }
  for (const table of ['contacts', 'calls'] as const) {
    const sourceRows = new Map(
      (source.prepare(`select org_id, count(*) as n from ${table} group by org_id`).all() as { org_id: number; n: number }[]).map((r) => [
        r.org_id,
        r.n,
      ]),
    );
    const targetRows = new Map(
      (
        await target
          .selectFrom(table)
          .select((eb) => ['org_id', eb.fn.countAll<number>().as('n')])
          .groupBy('org_id')
          .execute()
      ).map((r) => [Number(r.org_id), Number(r.n)]),
    );
    for (const org of [...new Set([...sourceRows.keys(), ...targetRows.keys()])].sort((a, b) => a - b)) {
      lines.push({ what: `organisation ${org}: ${table}`, source: sourceRows.get(org) ?? 0, target: targetRows.get(org) ?? 0 });
    }
  }
  return lines;
}

/** The count check as a table: each line's figures on both sides, and DIFFERS where they do. */
export function countTable(counts: CountLine[]): string {
  const width = Math.max(5, ...counts.map((c) => c.what.length));
  const figure = (n: number) => n.toLocaleString('en-US').padStart(12);
  const header = `${'table'.padEnd(width)} ${'source'.padStart(12)} ${'target'.padStart(12)}`;
  return [
    header,
    ...counts.map((c) => `${c.what.padEnd(width)} ${figure(c.source)} ${figure(c.target)}${c.source === c.target ? '' : '  DIFFERS'}`),
  ].join('\n');
}
