import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/*
 * contact_counts gains a stripe: a partition's count may be spread over a few rows, which readers sum. On
 * PostgreSQL every create, trash or move in one owner's folder upserted that partition's one row, and each writer
 * held its lock until its commit: creates for one member went one at a time (a bench of 10 connections found most of
 * them waiting on that row). Writers now add to a stripe of their own choosing (dialect.ts, countStripes); SQLite's
 * single writer keeps stripe 0. The table is made again because SQLite cannot change a primary key.
 */
/** The partition's key, and the stripe after it when there are stripes. */
const KEY = ['owner_id', 'folder_key', 'trashed', 'archived'];

/** contact_counts as it is with (`striped`) or without stripes, under another name until the old table goes. */
function countsTable(db: Db, name: string, striped: boolean) {
  let table = db.schema
    .createTable(name)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('folder_key', 'integer', (c) => c.notNull())
    .addColumn('trashed', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull());
  if (striped) table = table.addColumn('stripe', 'integer', (c) => c.notNull().defaultTo(0));
  return table
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint(striped ? 'contact_counts_striped_pk' : 'contact_counts_pk', (striped ? [...KEY, 'stripe'] : KEY) as never);
}

/** Puts `name` in contact_counts' place. */
async function replaceCounts(db: Db, name: string) {
  await db.schema.dropTable('contact_counts').execute();
  await db.schema.alterTable(name).renameTo('contact_counts').execute();
  await db.schema.createIndex('contact_counts_org').on('contact_counts').columns(['org_id', 'folder_key']).execute();
}

const COLUMNS = ['org_id', 'owner_id', 'folder_key', 'trashed', 'archived'] as const;

export async function up(db: Db): Promise<void> {
  await countsTable(db, 'contact_counts_striped', true).execute();
  await db
    .insertInto('contact_counts_striped')
    .columns([...COLUMNS, 'n'])
    .expression(db.selectFrom('contact_counts').select([...COLUMNS, 'n']))
    .execute();
  await replaceCounts(db, 'contact_counts_striped');
}

export async function down(db: Db): Promise<void> {
  await countsTable(db, 'contact_counts_whole', false).execute();
  await db
    .insertInto('contact_counts_whole')
    .columns([...COLUMNS, 'n'])
    .expression(
      db
        .selectFrom('contact_counts')
        .select([...COLUMNS])
        .select((eb) => eb.fn.sum('n').as('n'))
        .groupBy([...COLUMNS]),
    )
    .execute();
  await replaceCounts(db, 'contact_counts_whole');
}
