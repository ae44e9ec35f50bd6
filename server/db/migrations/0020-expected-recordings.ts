import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * A recording is 'expected' from the moment the carrier answers a call it records until the carrier announces the
 * file: the call says its recording is pending at once (not "none" for the minute before the announcement), and an
 * expectation the carrier never meets is given up by the housekeeper (`recordings_expected` finds the old ones).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex('recordings_expected')
    .on('recordings')
    .columns(['next_attempt_at_ms', 'id'])
    .where(sql.ref('state'), '=', 'expected')
    .execute();
}
