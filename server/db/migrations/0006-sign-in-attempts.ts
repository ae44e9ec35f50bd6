import type { Kysely } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Sign-in throttling counts attempts before their password is checked (login-throttle.ts), not failures after, and
 * a key is refused for the rest of its window once its limit is reached, so no per-key block time is kept.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('login_failures').renameColumn('failures', 'attempts').execute();
  await db.schema.alterTable('login_failures').dropColumn('blocked_until').execute();
  await db.schema.alterTable('login_failures').renameTo('sign_in_attempts').execute();
}
