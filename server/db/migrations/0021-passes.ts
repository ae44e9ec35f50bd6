import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Periodic passes shared by every server (the housekeeper's): a row per pass says when the next one is due and which
 * server holds it, under a lease like a bulk job's, so one server passes at a time on either store. The row is made
 * by the first claim (db/passes.ts), so this migration writes no rows.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('passes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('due_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .execute();
}
