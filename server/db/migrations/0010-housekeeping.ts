import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Bulk jobs count the chunks that failed on an unexpected error in a row, so a job that cannot get past one ends
 * failed instead of being retried for ever. And what housekeeping deletes by time and cannot find in id order: expired web sessions (a session's expiry moves with
 * its use) and sign-in counts whose window has closed (a count's row is kept and reused per key).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('sign_in_attempts_window').on('sign_in_attempts').column('window_started_at').execute();
}
