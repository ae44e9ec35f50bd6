import crypto from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';

/*
 * A browser that has signed in to an account keeps a device cookie: the member's id and a random nonce, with an
 * HMAC under the server key. It proves nothing but "this browser signed in as this member before", which is what
 * lets the sign-in throttle tell the account's owner from strangers guessing at it (login-throttle.ts).
 */
export const DEVICE_COOKIE = 'rb_device';
export const DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;

const mac = (key: Buffer, memberId: number, nonce: string) =>
  crypto.createHmac('sha256', key).update(`device:${memberId}:${nonce}`).digest('base64url');

export function deviceToken(key: Buffer, memberId: number): string {
  const nonce = crypto.randomBytes(16).toString('base64url');
  return `${memberId}.${nonce}.${mac(key, memberId, nonce)}`;
}

/** The member whose device cookie this request carries, when it is one we made. */
export function deviceMemberOf(req: Request, key: Buffer): number | undefined {
  const header = req.get('cookie');
  const value = header ? parseCookies(header)[DEVICE_COOKIE] : undefined;
  const match = value ? /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!match) return undefined;
  const memberId = Number(match[1]);
  const expected = Buffer.from(mac(key, memberId, match[2]!));
  const given = Buffer.from(match[3]!);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? memberId : undefined;
}
