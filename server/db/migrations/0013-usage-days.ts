import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Usage kept per member and UTC day (calls, live conversations, voicemails, e-mails, seconds of talk in live calls)
 * and the sessions with a call on each day, so a 90-day usage answer reads a few rows per member and day instead of
 * every call. Every write of a call adds its difference there (modules/dial-sessions/calls.repository.ts). No foreign
 * key to members: a member's history outlives it. Filled here from the calls already stored.
 */
export async function up(db: Db): Promise<void> {
  let days = db.schema
    .createTable('usage_days')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull());
  for (const name of ['calls', 'connected', 'voicemail', 'emails', 'talk_seconds'])
    days = days.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
  await days.addPrimaryKeyConstraint('usage_days_pk', ['member_id', 'day']).execute();
  await db.schema.createIndex('usage_days_org').on('usage_days').columns(['org_id', 'day']).execute();

  await db.schema
    .createTable('usage_day_sessions')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('session_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_day_sessions_pk', ['member_id', 'day', 'session_id'])
    .execute();
  // Covers the vendor's count of distinct sessions over a range of days.
  await db.schema
    .createIndex('usage_day_sessions_org')
    .on('usage_day_sessions')
    .columns(['org_id', 'day', 'member_id', 'session_id'])
    .execute();

  const day = sql<string>`substr(started_at, 1, 10)`;
  await db
    .insertInto('usage_days')
    .columns(['org_id', 'member_id', 'day', 'calls', 'connected', 'voicemail', 'emails', 'talk_seconds'])
    .expression(
      db
        .selectFrom('calls')
        .select((eb) => [
          'org_id',
          'member_id',
          day.as('day'),
          eb.fn.countAll().as('calls'),
          eb.fn.sum('live').as('connected'),
          eb.fn.sum('voicemail').as('voicemail'),
          eb.fn.sum('email_sent').as('emails'),
          eb.fn.sum(eb.case().when('live', '=', 1).then(eb.ref('talk_seconds')).else(0).end()).as('talk_seconds'),
        ])
        .groupBy(['org_id', 'member_id', day]),
    )
    .execute();
  await db
    .insertInto('usage_day_sessions')
    .columns(['org_id', 'member_id', 'day', 'session_id'])
    .expression(
      db
        .selectFrom('calls')
        .select(['org_id', 'member_id', day.as('day'), 'session_id'])
        .distinct(),
    )
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('usage_day_sessions').execute();
  await db.schema.dropTable('usage_days').execute();
}
