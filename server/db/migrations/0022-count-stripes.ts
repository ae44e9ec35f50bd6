import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * contact_counts gains a stripe: a partition's count may be spread over a few rows, which readers sum. On
 * PostgreSQL every create, trash or move in one owner's folder upserted that partition's one row, and each writer
 * held its lock until its commit: creates for one member went one at a time (a bench of 10 connections found most of
 * them waiting on that row). Writers now add to a stripe of their own choosing (dialect.ts, countStripes); SQLite's
 * single writer keeps stripe 0. The table is made again because SQLite cannot change a primary key.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('contact_counts_striped')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('folder_key', 'integer', (c) => c.notNull())
    .addColumn('trashed', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('stripe', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_counts_striped_pk', ['owner_id', 'folder_key', 'trashed', 'archived', 'stripe'])
    .execute();
  await db
    .insertInto('contact_counts_striped')
    .columns(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived', 'n'])
    .expression(db.selectFrom('contact_counts').select(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived', 'n']))
    .execute();
  await db.schema.dropTable('contact_counts').execute();
  await db.schema.alterTable('contact_counts_striped').renameTo('contact_counts').execute();
  await db.schema.createIndex('contact_counts_org').on('contact_counts').columns(['org_id', 'folder_key']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema
    .createTable('contact_counts_whole')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('folder_key', 'integer', (c) => c.notNull())
    .addColumn('trashed', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_counts_pk', ['owner_id', 'folder_key', 'trashed', 'archived'])
    .execute();
  await db
    .insertInto('contact_counts_whole')
    .columns(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived', 'n'])
    .expression(
      db
        .selectFrom('contact_counts')
        .select(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived'])
        .select((eb) => eb.fn.sum('n').as('n'))
        .groupBy(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived']),
    )
    .execute();
  await db.schema.dropTable('contact_counts').execute();
  await db.schema.alterTable('contact_counts_whole').renameTo('contact_counts').execute();
  await db.schema.createIndex('contact_counts_org').on('contact_counts').columns(['org_id', 'folder_key']).execute();
}
