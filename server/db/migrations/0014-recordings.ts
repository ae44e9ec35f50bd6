import { type Kysely, sql } from 'kysely';
import { tableWithId } from './dialect.js';
import { createTranscriptIndex } from '../transcript-index.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

const table = tableWithId;

/**
 * What remains of a call: its recording (announced by the carrier, fetched into the recording store by a leased job)
 * and its transcript (queued once the recording is stored, worked by a leased job: queued, processing, completed,
 * summarized; or failed or unavailable, with a reason). Each organisation chooses whether calls are recorded and how
 * long recordings and transcripts are kept.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('organisations')
    .addColumn('record_calls', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('organisations')
    .addColumn('recording_retention_days', 'integer', (c) => c.notNull().defaultTo(365))
    .execute();

  await table(db, 'recordings')
    .addColumn('call_id', 'integer', (c) => c.notNull().unique())
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('stored_at', 'text')
    .execute();
  await db.schema
    .createIndex('recordings_due')
    .on('recordings')
    .columns(['next_attempt_at_ms', 'id'])
    .where(sql.ref('state'), '=', 'announced')
    .execute();
  await db.schema.createIndex('recordings_org').on('recordings').columns(['org_id', 'id']).execute();

  await table(db, 'transcripts')
    .addColumn('call_id', 'integer', (c) => c.notNull().unique())
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('engine', 'text')
    .addColumn('segments', 'text')
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('talk_member_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('talk_contact_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('transcripts_due')
    .on('transcripts')
    .columns(['next_attempt_at_ms', 'id'])
    .where((eb) => eb(sql.ref('status'), 'in', ['queued', 'processing', 'completed']))
    .execute();
  await db.schema.createIndex('transcripts_org').on('transcripts').columns(['org_id', 'id']).execute();
  await createTranscriptIndex(db);
}
