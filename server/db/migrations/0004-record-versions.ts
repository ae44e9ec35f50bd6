import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * What a kept copy of a contact's record is checked against (record-cache.ts): `contacts.version` counts the
 * writes to the contact and its own detail rows; `organisations.catalog_version` counts the writes to what
 * records show from outside the contact (folder names, member names, tag titles, custom fields). Both start at
 * 0, and nothing was kept before them, so existing rows need no backfill.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('contacts')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organisations')
    .addColumn('catalog_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
