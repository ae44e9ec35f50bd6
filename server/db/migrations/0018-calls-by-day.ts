import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/** The calls list's days for an organisation (the vendor's Calls screen): calls by organisation and start. */
export async function up(db: Db): Promise<void> {
  await db.schema.createIndex('calls_org_started').on('calls').columns(['org_id', 'started_at']).execute();
}
