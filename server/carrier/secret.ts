import crypto from 'node:crypto';

/**
 * The secret Ringbook and its carrier share: commands carry it as a bearer token, status callbacks are signed with
 * it (Standard Webhooks), media links for the carrier are signed with it. CARRIER_SECRET when set (a carrier run
 * apart), otherwise derived from the server key, so every process of a deployment and the carrier it starts agree.
 */
export function carrierSecretOf(configured: string | undefined, serverKey: Buffer): string {
  if (configured) return configured.startsWith('whsec_') ? configured : `whsec_${Buffer.from(configured, 'utf8').toString('base64')}`;
  return `whsec_${crypto.createHmac('sha256', serverKey).update('ringbook carrier secret').digest('base64')}`;
}

const mac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('base64url');

/** A link the carrier may fetch without a session: the path, an expiry (ms) and a signature over both. */
export function signedMediaPath(secret: string, path: string, expiresAtMs: number): string {
  return `${path}?expires=${expiresAtMs}&signature=${mac(secret, `${path}:${expiresAtMs}`)}`;
}

/** Whether a media link is ours and still valid. */
export function checkMediaSignature(secret: string, path: string, expires: unknown, signature: unknown): boolean {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,15}$/.test(expires) || Number(expires) < Date.now())
    return false;
  const expected = Buffer.from(mac(secret, `${path}:${expires}`));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
