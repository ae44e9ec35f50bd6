import { type AuthContext, isVendor } from '../../auth/access.js';
import { insertAccessToken } from '../../auth/auth.repository.js';
import { displayName } from '../../auth/member-record.js';
import { randomSecret, sha256 } from '../../auth/tokens.js';
import type { AccessTokenRecord } from '../../contracts/oauth.js';
import type { Store } from '../../db/database.js';
import { notFound, vendorOnly } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './tokens.repository.js';

export type AccessTokensDeps = { store: Store };

/*
 * Personal access tokens a member makes for its scripts: named, shown once (only the SHA-256 is kept), listed with when
 * each was last used, revoked one by one. They are besides the token derived per member (members' oauth.bearer_token),
 * which "replace the API token" rotates without touching these. The vendor lists and revokes anyone's in its
 * organisation; another member's tokens are not found.
 */

const toRecord = (row: repo.NamedTokenRow, token?: string): AccessTokenRecord => ({
  token_id: String(row.id),
  name: row.name ?? '',
  user_id: String(row.member_id),
  member_name: displayName(row),
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  ...(token === undefined ? {} : { token }),
});

export async function listTokens(ctx: AccessTokensDeps, auth: AuthContext, entireTeam: boolean): Promise<AccessTokenRecord[]> {
  if (entireTeam && !isVendor(auth.member)) throw vendorOnly("Only the organisation's vendor account can list every member's tokens.");
  const where = entireTeam ? { orgId: auth.member.org_id } : { memberId: auth.member.id };
  return (await repo.listNamedTokens(ctx.store.db, where)).map((row) => toRecord(row));
}

export async function createToken(ctx: AccessTokensDeps, auth: AuthContext, name: string): Promise<AccessTokenRecord> {
  const token = randomSecret('rbp');
  const at = now();
  const { id } = await ctx.store.write((tx) => insertAccessToken(tx, auth.member.id, sha256(token), 'named', at, { name }));
  const { first_name, last_name, username } = auth.member;
  return toRecord({ id, name, member_id: auth.member.id, first_name, last_name, username, created_at: at, last_used_at: null }, token);
}

export async function revokeNamedToken(ctx: AccessTokensDeps, auth: AuthContext, id: number): Promise<void> {
  const row = await repo.findNamedToken(ctx.store.db, id);
  const mayRevoke = row && (row.member_id === auth.member.id || (isVendor(auth.member) && row.org_id === auth.member.org_id));
  if (!mayRevoke) throw notFound(`There is no access token ${id} of yours.`);
  await ctx.store.write((tx) => repo.revokeToken(tx, id, now()));
}
