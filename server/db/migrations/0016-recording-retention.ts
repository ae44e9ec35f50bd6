import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Retention of recordings and transcripts (housekeeping/recording-retention.ts). A recording past its organisation's
 * retention is marked 'deleted' (the call then says so) and its file removed after the mark is committed:
 * - `recordings_expiry` finds an organisation's oldest recordings not yet deleted, by time, without reading the
 *   deleted ones that pile up before them;
 * - `recordings_unfiled` finds the deleted ones whose file is still to be removed (a process that died in between).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex('recordings_expiry')
    .on('recordings')
    .columns(['org_id', 'created_at'])
    .where(sql.ref('state'), '!=', 'deleted')
    .execute();
  await db.schema
    .createIndex('recordings_unfiled')
    .on('recordings')
    .column('id')
    .where((eb) => eb.and([eb(sql.ref('state'), '=', 'deleted'), eb(sql.ref('storage_key'), 'is not', null)]))
    .execute();
}
