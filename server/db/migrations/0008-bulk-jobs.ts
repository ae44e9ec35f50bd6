import { type Kysely, sql } from 'kysely';
import { tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Bulk changes to many contacts (a tag added to a whole filtered view) run as jobs in the background, chunk by chunk,
 * so no request has to last as long as the work; any server process may run a job, under a lease.
 */
export async function up(db: Db): Promise<void> {
  await tableWithId(db, 'bulk_jobs')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('selection', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor', 'integer')
    .addColumn('error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('bulk_jobs_open')
    .on('bulk_jobs')
    .column('id')
    .where(sql.ref('status'), 'in', ['queued', 'running'])
    .execute();
}
