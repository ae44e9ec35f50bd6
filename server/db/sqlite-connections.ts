import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';

/* The embedded store's two connections as Kysely drives them (database.ts opens them): statements kept, rows as arrays. */

const STATEMENT_CACHE_LIMIT = 2_000;

/*
 * Kysely's SQLite driver prepares every query anew; preparing is a large share of a short query's cost.
 * Queries are built from a fixed set of shapes, so their SQL texts repeat and their statements can be kept.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare: (sqlText: string) => {
      let statement = statements.get(sqlText);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = rowsAsObjects(sqlite.prepare(sqlText));
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/*
 * better-sqlite3 builds each row object by adding its columns one by one, which for a wide row (a contact has
 * 45 columns) costs more than running the query. A statement that returns rows is switched to arrays instead,
 * and each array becomes an object through an object literal made once for the statement's columns: every
 * row then shares one shape from the start. A 25-contact page went from 280 to about 165 us.
 */
function rowsAsObjects(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  // Each name is written as a JSON string literal, so any column name is a valid, inert property key; a computed
  // key for "__proto__", which as a plain key would set the prototype instead. Where names repeat (a join), the
  // last one wins, as it does in better-sqlite3's own objects.
  const properties = statement.columns().map(({ name }, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: r[${i}]`);
  const toObject = new Function('r', `return {${properties.join(', ')}};`) as (row: unknown[]) => Record<string, unknown>;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

/*
 * Kysely's SQLite driver hands its one connection out behind a mutex, so a transaction can keep it across
 * awaits. Its waiters all wake at each release and race for it: with ten requests reading at once, some lost
 * round after round, which showed as a p99 three times the median. The reader runs no transactions and
 * better-sqlite3 answers each query synchronously, so queries never overlap on it: it needs no mutex at all.
 */
class ReaderDriver implements Driver {
  private readonly connection: DatabaseConnection;

  constructor(private readonly sqlite: SqliteDatabase) {
    this.connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const statement = sqlite.prepare(query.sql);
        if (!statement.reader) throw new Error('The reader connection only reads; write through store.write.');
        return { rows: statement.all(query.parameters) as R[] };
      },
      streamQuery: () => {
        throw new Error('The reader connection does not stream.');
      },
    };
  }

  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('The reader connection runs no transactions; write through store.write.');
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {
    this.sqlite.close();
  }
}

export class ReaderDialect extends SqliteDialect {
  constructor(private readonly sqlite: SqliteDatabase) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new ReaderDriver(this.sqlite);
  }
}
