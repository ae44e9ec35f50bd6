import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Member } from '../db/schema.js';
import { Codes, unauthorized } from '../lib/errors.js';
import { now } from '../lib/time.js';

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/**
 * A member's personal access token: 256 bits of HMAC under the server key. The store keeps only its
 * SHA-256; the token itself is derived again when a member record shows it (the contract's
 * oauth.bearer_token), and bumping token_generation replaces it.
 */
export function personalToken(key: Buffer, member: Pick<Member, 'id' | 'token_generation'>): string {
  const mac = crypto.createHmac('sha256', key).update(`pat:${member.id}:${member.token_generation}`).digest('base64url');
  return `rb_${mac}`;
}

export async function issuePersonalToken(db: Db, key: Buffer, member: Pick<Member, 'id' | 'token_generation'>) {
  await db
    .insertInto('access_tokens')
    .values({ member_id: member.id, token_hash: sha256(personalToken(key, member)), kind: 'personal', created_at: now() })
    .execute();
}

const tokenHolder = prepared<null, { hash: string }, Member & { expires_at: string | null; revoked_at: string | null }>('token holder', (db, _, p) =>
  db
    .selectFrom('access_tokens')
    .innerJoin('members', 'members.id', 'access_tokens.member_id')
    .selectAll('members')
    .select(['access_tokens.expires_at', 'access_tokens.revoked_at'])
    .where('access_tokens.token_hash', '=', p.hash));

/** Resolves a presented bearer token to its member in one query, or throws the 401 the contract expects. */
export async function memberForToken(db: Db, token: string): Promise<Member> {
  const [row] = await tokenHolder(db, null, { hash: sha256(token) });
  if (!row || row.revoked_at) throw unauthorized(Codes.unknownToken, 'The access token is not valid. Send a current token as "Authorization: Bearer <token>".');
  if (row.expires_at && row.expires_at <= now()) throw unauthorized(Codes.expiredToken, 'The access token has expired. Refresh it or ask for a new one.');
  const { expires_at: _expires, revoked_at: _revoked, ...member } = row;
  return member;
}
