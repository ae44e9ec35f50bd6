import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Calls per member, UTC day and disposition label ('' while a call has none), kept like usage_days by every write of
 * a call (modules/dial-sessions/calls.repository.ts), so the usage screen's outcomes read a few rows per member and
 * day instead of every call. No foreign key to members: a member's history outlives it. Filled here from the calls.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('usage_dispositions')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('disposition', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_dispositions_pk', ['member_id', 'day', 'disposition'])
    .execute();
  // Covers the vendor's sum per label over a range of days.
  await db.schema
    .createIndex('usage_dispositions_org')
    .on('usage_dispositions')
    .columns(['org_id', 'day', 'disposition', 'calls'])
    .execute();

  const day = sql<string>`substr(started_at, 1, 10)`;
  await db
    .insertInto('usage_dispositions')
    .columns(['org_id', 'member_id', 'day', 'disposition', 'calls'])
    .expression(
      db
        .selectFrom('calls')
        .select((eb) => ['org_id', 'member_id', day.as('day'), 'disposition', eb.fn.countAll().as('calls')])
        .groupBy(['org_id', 'member_id', day, 'disposition']),
    )
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('usage_dispositions').execute();
}
