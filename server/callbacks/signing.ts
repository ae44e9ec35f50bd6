import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Receivers reject messages whose timestamp is further than this from their clock (Standard Webhooks' default). */
const TOLERANCE_SECONDS = 5 * 60;

/** A signing secret in the Standard Webhooks form, so receivers can hand it to any of its libraries as is. */
export function newCallbackSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The three Standard Webhooks headers. One v1 signature per secret: during a rotation the previous secret
 * signs too, so a receiver that still holds it keeps verifying until it switches.
 */
export function signedHeaders(secrets: string[], msgId: string, at: Date, body: string): Record<string, string> {
  if (secrets.length === 0) throw new Error('signedHeaders needs at least one secret.');
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(unixSeconds(at)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(' '),
  };
}

/**
 * What a receiver does, with the clock as a parameter (the package's verify reads Date.now() and parses the
 * body as JSON). The signature itself is still computed by the package.
 */
export function verifySignature(secret: string, headers: Record<string, string>, body: string, now = new Date()): boolean {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const id = lower['webhook-id'];
  const timestamp = lower['webhook-timestamp'];
  const signatures = lower['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(unixSeconds(now) - seconds) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(new Webhook(secret).sign(id, new Date(seconds * 1000), body));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
