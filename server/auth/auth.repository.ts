import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Member } from '../db/schema.js';

/*
 * The store reads and writes of access: who a token or session belongs to, who is in whose team. Modules use
 * these look-ups too; auth never reaches into the modules.
 */

const memberById = prepared<null, { id: number }, Member>('member by id', (db, _, p) =>
  db.selectFrom('members').selectAll().where('id', '=', p.id),
);
export const findMemberById = async (db: Db, id: number): Promise<Member | undefined> => (await memberById(db, null, { id }))[0];

export const findMemberByUsername = (db: Db, username: string) =>
  db.selectFrom('members').selectAll().where('username', '=', username).executeTakeFirst();

export const findMembersByUsername = (db: Db, usernames: string[]) =>
  db.selectFrom('members').selectAll().where('username', 'in', usernames).execute();

/** Ids of a member and everyone beneath it in the team tree, at any depth. */
const team = prepared<null, { memberId: number }, { id: number }>('team', (db, _, p) =>
  db
    .withRecursive('team(id)', (qb) =>
      qb
        .selectFrom('members')
        .select('id')
        .where('id', '=', p.memberId)
        .unionAll((q) => q.selectFrom('members').innerJoin('team', 'team.id', 'members.parent_id').select('members.id')),
    )
    .selectFrom('team')
    .select('id'),
);

export async function teamIds(db: Db, memberId: number): Promise<number[]> {
  return (await team(db, null, { memberId })).map((r) => r.id);
}

export type TokenHolder = Member & { expires_at: string | null; revoked_at: string | null };

const tokenHolder = prepared<null, { hash: string }, TokenHolder>('token holder', (db, _, p) =>
  db
    .selectFrom('access_tokens')
    .innerJoin('members', 'members.id', 'access_tokens.member_id')
    .selectAll('members')
    .select(['access_tokens.expires_at', 'access_tokens.revoked_at'])
    .where('access_tokens.token_hash', '=', p.hash),
);

/** The member a token hash belongs to, with the token's expiry and revocation, in one query. */
export const findTokenHolder = async (db: Db, hash: string): Promise<TokenHolder | undefined> => (await tokenHolder(db, null, { hash }))[0];

export async function insertAccessToken(db: Db, memberId: number, hash: string, kind: 'personal' | 'oauth', at: string) {
  await db.insertInto('access_tokens').values({ member_id: memberId, token_hash: hash, kind, created_at: at }).execute();
}

export type SessionRow = { id_hash: string; member_id: number; created_at: string; last_seen_at: string; expires_at: string };

export async function insertSession(db: Db, row: SessionRow) {
  await db.insertInto('sessions').values(row).execute();
}

export const findSession = (db: Db, idHash: string) =>
  db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();

export async function touchSession(db: Db, idHash: string, at: string) {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string) {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export type AttemptCount = { key: string; attempts: number; window_started_at: string };

export const findAttemptCounts = (db: Db, keys: string[]): Promise<AttemptCount[]> =>
  db.selectFrom('sign_in_attempts').selectAll().where('key', 'in', keys).execute();

export async function saveAttemptCounts(db: Db, rows: AttemptCount[]) {
  if (!rows.length) return;
  await db
    .insertInto('sign_in_attempts')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({ attempts: eb.ref('excluded.attempts'), window_started_at: eb.ref('excluded.window_started_at') })),
    )
    .execute();
}

export async function deleteAttemptCounts(db: Db, keys: string[]) {
  await db.deleteFrom('sign_in_attempts').where('key', 'in', keys).execute();
}

/** Housekeeping: web sessions past their absolute end (an idle one is refused when used, and ends by then too). */
export async function pruneWebSessions(tx: Db, at: string, limit: number): Promise<number> {
  const result = await tx
    .deleteFrom('sessions')
    .where('id_hash', 'in', tx.selectFrom('sessions').select('id_hash').where('expires_at', '<=', at).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Housekeeping: sign-in counts whose window opened before `before`: a closed window counts nothing. */
export async function pruneSignInCounts(tx: Db, before: string, limit: number): Promise<number> {
  const result = await tx
    .deleteFrom('sign_in_attempts')
    .where('key', 'in', tx.selectFrom('sign_in_attempts').select('key').where('window_started_at', '<', before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
