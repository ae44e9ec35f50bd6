import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * A member who leaves is removed, not deleted: dial sessions, calls, notes and audit records keep pointing at the
 * row, so history stays attributed to them while they can no longer sign in, hold a token or own contacts. A removed
 * member's username may be taken again, so it is unique among present members only.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('members').addColumn('removed_at', 'text').execute();
  await db.schema.dropIndex('members_username').execute();
  await db.schema
    .createIndex('members_username')
    .unique()
    .on('members')
    .column('username')
    .where(sql.ref('removed_at'), 'is', null)
    .execute();
}
