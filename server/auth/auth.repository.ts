import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Member, TokenKind } from '../db/schema.js';

/*
 * The store reads and writes of access: who a token or session belongs to, who is in whose team. Modules use
 * these look-ups too; auth never reaches into the modules.
 */

/*
 * A removed member (migration 0012) keeps its row for the history that names it, and is nobody for everything else:
 * these look-ups answer present members only. `findMemberOfRecord` is for history alone (who made a call).
 */
const memberById = prepared<null, { id: number }, Member>('member by id', (db, _, p) =>
  db.selectFrom('members').selectAll().where('id', '=', p.id).where('removed_at', 'is', null),
);
export const findMemberById = async (db: Db, id: number): Promise<Member | undefined> => (await memberById(db, null, { id }))[0];

export const findMemberOfRecord = (db: Db, id: number): Promise<Member | undefined> =>
  db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();

export const findMemberByUsername = (db: Db, username: string) =>
  db.selectFrom('members').selectAll().where('username', '=', username).where('removed_at', 'is', null).executeTakeFirst();

export const findMembersByUsername = (db: Db, usernames: string[]) =>
  db.selectFrom('members').selectAll().where('username', 'in', usernames).where('removed_at', 'is', null).execute();

/** Ids of a member and everyone beneath it in the team tree, at any depth; `history` keeps removed members in. */
const team = prepared<'present' | 'history', { memberId: number }, { id: number }>('team', (db, shape, p) => {
  const q = db
    .withRecursive('team(id, removed_at)', (qb) =>
      qb
        .selectFrom('members')
        .select(['id', 'removed_at'])
        .where('id', '=', p.memberId)
        .unionAll((q) =>
          q.selectFrom('members').innerJoin('team', 'team.id', 'members.parent_id').select(['members.id', 'members.removed_at']),
        ),
    )
    .selectFrom('team')
    .select('id');
  return shape === 'present' ? q.where('removed_at', 'is', null) : q;
});

/** The member and the present members beneath it: the team as it is now. */
export async function teamIds(db: Db, memberId: number): Promise<number[]> {
  return (await team(db, 'present', { memberId })).map((r) => r.id);
}

/** The team with the members removed from it, whose sessions and calls its manager still reads. */
export async function teamIdsWithHistory(db: Db, memberId: number): Promise<number[]> {
  return (await team(db, 'history', { memberId })).map((r) => r.id);
}

export type TokenHolder = Member & {
  /** The organisation's catalog version (db/versions.ts), read with the token: one statement fewer per request. */
  catalog_version: number;
  token_id: number;
  token_kind: TokenKind;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
};

const tokenHolder = prepared<null, { hash: string }, TokenHolder>('token holder', (db, _, p) =>
  db
    .selectFrom('access_tokens')
    .innerJoin('members', 'members.id', 'access_tokens.member_id')
    .innerJoin('organisations', 'organisations.id', 'members.org_id')
    .selectAll('members')
    .select([
      'organisations.catalog_version',
      'access_tokens.id as token_id',
      'access_tokens.kind as token_kind',
      'access_tokens.expires_at',
      'access_tokens.revoked_at',
      'access_tokens.last_used_at',
    ])
    .where('access_tokens.token_hash', '=', p.hash)
    .where('members.removed_at', 'is', null),
);

/** The member a token hash belongs to, with the token's expiry and revocation and its organisation's catalog version, in one query. */
export const findTokenHolder = async (db: Db, hash: string): Promise<TokenHolder | undefined> => (await tokenHolder(db, null, { hash }))[0];

export type NewToken = { grantId?: number; name?: string; expiresAt?: string };

export async function insertAccessToken(db: Db, memberId: number, hash: string, kind: TokenKind, at: string, more: NewToken = {}) {
  return db
    .insertInto('access_tokens')
    .values({
      member_id: memberId,
      token_hash: hash,
      kind,
      created_at: at,
      grant_id: more.grantId ?? null,
      name: more.name ?? null,
      expires_at: more.expiresAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Notes that a token was used at `at`, unless that was noted since `since` already: one write a minute per token at
 * most, and two servers noting it at once write it once.
 */
export async function touchToken(tx: Db, id: number, at: string, since: string) {
  await tx
    .updateTable('access_tokens')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', since)]))
    .execute();
}

/** Of these session id hashes, the ones still signed in at `at`: not past their end, not idle since `idleSince`. */
export async function liveSessionHashes(db: Db, hashes: string[], at: string, idleSince: string): Promise<Set<string>> {
  if (!hashes.length) return new Set();
  const rows = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('id_hash', 'in', hashes)
    .where('expires_at', '>', at)
    .where('last_seen_at', '>', idleSince)
    .execute();
  return new Set(rows.map((r) => r.id_hash));
}

/** Of these token hashes, the ones that still let their member in at `at`. */
export async function liveTokenHashes(db: Db, hashes: string[], at: string): Promise<Set<string>> {
  if (!hashes.length) return new Set();
  const rows = await db
    .selectFrom('access_tokens')
    .innerJoin('members', 'members.id', 'access_tokens.member_id')
    .select('access_tokens.token_hash')
    .where('access_tokens.token_hash', 'in', hashes)
    .where('access_tokens.revoked_at', 'is', null)
    .where('members.removed_at', 'is', null)
    .where((eb) => eb.or([eb('access_tokens.expires_at', 'is', null), eb('access_tokens.expires_at', '>', at)]))
    .execute();
  return new Set(rows.map((r) => r.token_hash));
}

export type SessionRow = { id_hash: string; member_id: number; created_at: string; last_seen_at: string; expires_at: string };

export async function insertSession(db: Db, row: SessionRow) {
  await db.insertInto('sessions').values(row).execute();
}

export const findSession = (db: Db, idHash: string) =>
  db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();

/** Ends a member's web sessions, all of them or all but one (the one that changed its password). */
export async function deleteSessionsOf(tx: Db, memberId: number, exceptIdHash?: string) {
  let q = tx.deleteFrom('sessions').where('member_id', '=', memberId);
  if (exceptIdHash) q = q.where('id_hash', '!=', exceptIdHash);
  await q.execute();
}

/** Revokes a member's tokens that still work (of one kind, or all). */
export async function revokeTokensOf(tx: Db, memberId: number, at: string, kind?: TokenKind) {
  let q = tx.updateTable('access_tokens').set({ revoked_at: at }).where('member_id', '=', memberId).where('revoked_at', 'is', null);
  if (kind) q = q.where('kind', '=', kind);
  await q.execute();
}

export async function touchSession(db: Db, idHash: string, at: string) {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string) {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export type AttemptCount = { key: string; attempts: number; window_started_at: string };

/**
 * Counts one attempt under each key, atomically per key (one upsert: whatever the store and however many servers
 * count at once, no attempt is lost): a count whose window opened at or before `opened` starts again at 1 in a new
 * window from `at`. Keys are taken in order, so two writers lock the same rows in the same order. Answers each key's
 * count and window after this attempt.
 */
export async function countAttempts(db: Db, keys: string[], at: string, opened: string): Promise<AttemptCount[]> {
  if (!keys.length) return [];
  const live = sql<boolean>`sign_in_attempts.window_started_at > ${opened}`;
  return db
    .insertInto('sign_in_attempts')
    .values([...keys].sort().map((key) => ({ key, attempts: 1, window_started_at: at })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        attempts: sql<number>`case when ${live} then sign_in_attempts.attempts + 1 else 1 end`,
        window_started_at: sql<string>`case when ${live} then sign_in_attempts.window_started_at else ${at} end`,
      }),
    )
    .returning(['key', 'attempts', 'window_started_at'])
    .execute();
}

/** Gives one attempt back to each key whose window is still open (never below 0), in one statement. */
export async function uncountAttempts(db: Db, keys: string[], opened: string) {
  if (!keys.length) return;
  await db
    .updateTable('sign_in_attempts')
    .set({ attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` })
    .where('key', 'in', keys)
    .where('window_started_at', '>', opened)
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
