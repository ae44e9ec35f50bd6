import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * How many contacts each owner has in each folder (0: none) and state. A list's total is then a sum over a few
 * of these rows instead of a count over every matching contact, which at a million contacts was most of a
 * page's time. Every write that adds, removes or moves a contact keeps them in step (contact-counts.ts).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('contact_counts')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('folder_key', 'integer', (c) => c.notNull())
    .addColumn('trashed', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_counts_pk', ['owner_id', 'folder_key', 'trashed', 'archived'])
    .execute();
  await db.schema.createIndex('contact_counts_org').on('contact_counts').columns(['org_id', 'folder_key']).execute();
  await db
    .insertInto('contact_counts')
    .columns(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived', 'n'])
    .expression(
      db
        .selectFrom('contacts')
        .select((eb) => [
          'org_id',
          'owner_id',
          eb.fn.coalesce('folder_id', sql.lit(0)).as('folder_key'),
          'trashed',
          'archived',
          eb.fn.countAll().as('n'),
        ])
        .groupBy(['org_id', 'owner_id', sql`coalesce(folder_id, 0)`, 'trashed', 'archived']),
    )
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('contact_counts').execute();
}
