import { type Kysely, sql } from 'kysely';
import { tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Disposition e-mails. A message of the library gets a subject and the member who wrote it (members change their own;
 * the system's and the organisation's older ones have none). An e-mail to send is a row of `emails`, written in the
 * transaction that dispositions its call, already merged (to, from, subject, body as they go out), and delivered by
 * a leased job in any process: pending, then sent or failed, one per call at most.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('member_id', 'integer', (c) => c.references('members.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await tableWithId(db, 'emails')
    .addColumn('call_id', 'integer', (c) => c.notNull().unique())
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('sent_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('emails_due')
    .on('emails')
    .columns(['next_attempt_at_ms', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('emails').execute();
  await db.schema.alterTable('messages').dropColumn('subject').execute();
  await db.schema.alterTable('messages').dropColumn('member_id').execute();
}
