import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/** The detail tables most contacts have no rows in, each with its bit in contacts.detail_kinds. */
const SPARSE = [
  ['contact_addresses', 1],
  ['contact_tags', 2],
  ['contact_custom_values', 4],
  ['contact_notes', 8],
  ['contact_names', 16],
  ['contact_answers', 32],
  ['contact_social_accounts', 64],
  ['contact_crm_links', 128],
] as const;

/**
 * Which of the sparse detail tables may hold rows for a contact: a record is read without a query to each table
 * where no contact of the page has a bit set. A set bit may be stale (the rows were removed since); a clear bit
 * never is: every write that adds such a row sets its bit in the same transaction.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('contacts')
    .addColumn('detail_kinds', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const bits = SPARSE.map(
    ([table, bit]) =>
      sql`case when exists (select 1 from ${sql.table(table)} where contact_id = contacts.id) then ${sql.lit(bit)} else 0 end`,
  );
  await db
    .updateTable('contacts')
    .set({ detail_kinds: sql.join(bits, sql` + `) })
    .execute();
}
