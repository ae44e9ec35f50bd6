import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { DomainError } from '../lib/errors.js';
import { now } from '../lib/time.js';
import { findTokenHolder, insertAccessToken } from './auth.repository.js';

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
  await insertAccessToken(db, member.id, sha256(personalToken(key, member)), 'personal', now());
}

/** Resolves a presented bearer token to its member in one query, or refuses it as unknown or expired. */
export async function memberForToken(db: Db, token: string): Promise<Member> {
  const row = await findTokenHolder(db, sha256(token));
  if (!row || row.revoked_at)
    throw new DomainError('unknown_token', 'The access token is not valid. Send a current token as "Authorization: Bearer <token>".');
  if (row.expires_at && row.expires_at <= now())
    throw new DomainError('expired_token', 'The access token has expired. Refresh it or ask for a new one.');
  const { expires_at: _expires, revoked_at: _revoked, ...member } = row;
  return member;
}
