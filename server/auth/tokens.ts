import crypto from 'node:crypto';
import type { Db, Store } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { DomainError } from '../lib/errors.js';
import { addSeconds, now } from '../lib/time.js';
import { findTokenHolder, insertAccessToken, touchToken } from './auth.repository.js';

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** A new secret of 256 random bits, with a prefix that says what it is (rbp_ a personal token, rbo_ an OAuth one...). */
export const randomSecret = (prefix: string) => `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;

/** Compares two SHA-256 hex digests in constant time. */
export const sameHash = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

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

/*
 * Writing last_used_at on every request would make every read a write: a minute is as precise as "last used" needs.
 * Only the tokens whose last use is shown (named and OAuth ones) note it; the derived personal token, which scripts and
 * the vendor's integrations use all day, writes nothing.
 */
const TOUCH_AFTER_SECONDS = 60;

/**
 * Resolves a presented bearer token, by its SHA-256 (`sha256(token)`), to its member in one query, or refuses it as
 * unknown, revoked or expired. It reads the store every time (no cache in the process), so a token revoked on any
 * server is refused from the next request. The same statement reads the organisation's catalog version, which the
 * request's contact records are then checked against (record-cache.ts): read before any record is built, as the cache
 * requires.
 */
export async function memberForToken(store: Store, tokenHash: string): Promise<{ member: Member; catalogVersion: number }> {
  const row = await findTokenHolder(store.db, tokenHash);
  if (!row || row.revoked_at)
    throw new DomainError('unknown_token', 'The access token is not valid. Send a current token as "Authorization: Bearer <token>".');
  const at = now();
  if (row.expires_at && row.expires_at <= at)
    throw new DomainError('expired_token', 'The access token has expired. Refresh it or ask for a new one.');
  const since = addSeconds(at, -TOUCH_AFTER_SECONDS);
  if (row.token_kind !== 'personal' && (!row.last_used_at || row.last_used_at <= since))
    await store.write((tx) => touchToken(tx, row.token_id, at, since));
  const {
    expires_at: _expires,
    revoked_at: _revoked,
    token_id: _id,
    token_kind: _kind,
    last_used_at: _used,
    catalog_version: catalogVersion,
    ...member
  } = row;
  return { member, catalogVersion };
}
