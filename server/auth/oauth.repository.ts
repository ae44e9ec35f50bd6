import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { OauthClientsTable, OauthCodesTable } from '../db/schema.js';

/*
 * The store's side of the OAuth flow: integrations (clients), codes, grants and refresh tokens. Every "use once" step is
 * a conditional update (`where used_at is null`) whose count says who won: one writer at a time on SQLite, a row lock
 * on PostgreSQL (the loser's update waits for the winner's commit, then finds the row used).
 */

export type ClientRow = Selectable<OauthClientsTable>;
export type CodeRow = Selectable<OauthCodesTable>;

export const findClientByClientId = (db: Db, clientId: string): Promise<ClientRow | undefined> =>
  db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).where('deleted_at', 'is', null).executeTakeFirst();

export const findClientById = (db: Db, id: number): Promise<ClientRow | undefined> =>
  db.selectFrom('oauth_clients').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

export const organisationName = async (db: Db, orgId: number): Promise<string> =>
  (await db.selectFrom('organisations').select('name').where('id', '=', orgId).executeTakeFirst())?.name ?? '';

export async function insertCode(tx: Db, row: Omit<CodeRow, 'id' | 'used_at'>) {
  await tx.insertInto('oauth_codes').values(row).execute();
}

export const findCode = (tx: Db, hash: string): Promise<CodeRow | undefined> =>
  tx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();

/** Marks a code used; true for the one caller that did. */
export async function claimCode(tx: Db, id: number, at: string): Promise<boolean> {
  const result = await tx
    .updateTable('oauth_codes')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertGrant(tx: Db, row: { client_id: number; member_id: number; code_id: number; created_at: string }) {
  return (await tx.insertInto('oauth_grants').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertRefreshToken(tx: Db, grantId: number, hash: string, at: string) {
  await tx.insertInto('oauth_refresh_tokens').values({ grant_id: grantId, token_hash: hash, created_at: at }).execute();
}

export type RefreshRow = {
  id: number;
  grant_id: number;
  used_at: string | null;
  revoked_at: string | null;
  client_id: number;
  member_id: number;
  grant_revoked_at: string | null;
};

export const findRefreshToken = (tx: Db, hash: string): Promise<RefreshRow | undefined> =>
  tx
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
    .select(['r.id', 'r.grant_id', 'r.used_at', 'r.revoked_at', 'g.client_id', 'g.member_id', 'g.revoked_at as grant_revoked_at'])
    .where('r.token_hash', '=', hash)
    .executeTakeFirst();

/** Marks a refresh token exchanged; true for the one caller that did. */
export async function claimRefreshToken(tx: Db, id: number, at: string): Promise<boolean> {
  const result = await tx
    .updateTable('oauth_refresh_tokens')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The grant (and client) an access token was issued under, for revocation by its client. */
export const findOAuthAccessToken = (tx: Db, hash: string) =>
  tx
    .selectFrom('access_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select(['t.id', 't.grant_id', 'g.client_id'])
    .where('t.token_hash', '=', hash)
    .where('t.kind', '=', 'oauth')
    .executeTakeFirst();

export async function revokeAccessToken(tx: Db, id: number, at: string) {
  await tx.updateTable('access_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Revokes grants and every token issued under them, access and refresh, in the caller's transaction. */
export async function revokeGrants(tx: Db, grantIds: number[], at: string) {
  if (!grantIds.length) return;
  await tx.updateTable('oauth_grants').set({ revoked_at: at }).where('id', 'in', grantIds).where('revoked_at', 'is', null).execute();
  await tx.updateTable('access_tokens').set({ revoked_at: at }).where('grant_id', 'in', grantIds).where('revoked_at', 'is', null).execute();
  await tx
    .updateTable('oauth_refresh_tokens')
    .set({ revoked_at: at })
    .where('grant_id', 'in', grantIds)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function grantIdsOfCode(tx: Db, codeId: number): Promise<number[]> {
  return (await tx.selectFrom('oauth_grants').select('id').where('code_id', '=', codeId).execute()).map((r) => r.id);
}

/** A member's live grants to one integration (disconnect), or every member's (the integration deleted) when no member is given. */
export async function liveGrantIds(tx: Db, clientId: number, memberId?: number): Promise<number[]> {
  let q = tx.selectFrom('oauth_grants').select('id').where('client_id', '=', clientId).where('revoked_at', 'is', null);
  if (memberId !== undefined) q = q.where('member_id', '=', memberId);
  return (await q.execute()).map((r) => r.id);
}

/**
 * Housekeeping: codes never redeemed that expired before `before` (a redeemed one stays: its grant names it, and a
 * second use of it must still revoke that grant).
 */
export async function pruneUnusedCodes(tx: Db, before: string, limit: number): Promise<number> {
  const result = await tx
    .deleteFrom('oauth_codes')
    .where('id', 'in', tx.selectFrom('oauth_codes').select('id').where('used_at', 'is', null).where('expires_at', '<', before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
