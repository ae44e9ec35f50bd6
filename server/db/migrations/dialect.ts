import type { CreateTableBuilder, Kysely } from 'kysely';

/*
 * What the migrations write differently on the two stores, in one place: the identity column and binary data.
 * Everything else they write is the SQL both stores speak (docs/store.md says where the stores differ beyond).
 */

type Db = Kysely<any>;

export const isPostgres = (db: Db) => db.getExecutor().adapter.constructor.name.startsWith('Postgres');

/**
 * A table with an integer identity `id`: SQLite's rowid alias (AUTOINCREMENT: ids never reused) or PostgreSQL's
 * identity column, BY DEFAULT so that a copy from one store to the other keeps its ids.
 */
export function tableWithId(db: Db, name: string): CreateTableBuilder<any, any> {
  return db.schema
    .createTable(name)
    .addColumn('id', 'integer', (c) => (isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()));
}

/** Bytes: SQLite's blob, PostgreSQL's bytea. */
export const bytesType = (db: Db) => (isPostgres(db) ? 'bytea' : 'blob');
