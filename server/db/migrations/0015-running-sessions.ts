import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * One running dial session per member, kept by the store itself: a partial unique index on member_id where the status
 * is 'active'. The start checks first, in its write transaction (on SQLite writes are serialised, so that is enough);
 * on PostgreSQL two processes may both pass the check, and this index then refuses the second (dial-live.service.ts
 * turns that into the same 409). And the calls of one contact, newest first, for the contact page's call log.
 */
export async function up(db: Db): Promise<void> {
  await endOlderRunningSessions(db);
  await db.schema
    .createIndex('dial_sessions_one_running')
    .unique()
    .on('dial_sessions')
    .column('member_id')
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema.createIndex('calls_contact').on('calls').columns(['contact_id', 'id']).execute();
}

/**
 * A member found running several sessions (before this rule) keeps its newest running; the older are ended as far as
 * the store goes: their contacts not reached stay undialed, and a call still up in one is no longer followed.
 */
async function endOlderRunningSessions(db: Db) {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const older = (
    await db
      .selectFrom('dial_sessions as s')
      .select('s.id')
      .where('s.status', '=', 'active')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('dial_sessions as newer')
            .select('newer.id')
            .whereRef('newer.member_id', '=', 's.member_id')
            .where('newer.status', '=', 'active')
            .whereRef('newer.id', '>', 's.id'),
        ),
      )
      .execute()
  ).map((r) => r.id as number);
  if (!older.length) return;
  await db
    .updateTable('dial_sessions')
    .set({ status: 'ended', phase: 'done', wake_at_ms: null, ended_at: at })
    .where('id', 'in', older)
    .execute();
  await db
    .updateTable('dial_session_contacts')
    .set({ status: 'pending' })
    .where('session_id', 'in', older)
    .where('status', '=', 'current')
    .execute();
}
