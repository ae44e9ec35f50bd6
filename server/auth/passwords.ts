import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/* OWASP password storage cheat sheet: scrypt with N=2^17, r=8, p=1. It needs 128 MiB, above Node's 32 MiB default. */
const PARAMS = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const KEY_LENGTH = 32;
let cost = PARAMS.N;

/**
 * The tests' own processes only (server/test/setup.ts): hashes at N=2^10, since the suite makes members by the
 * thousand and at 2^17 scrypt took a third of its CPU. A hash records its parameters, so verifying is unchanged.
 */
export function cheapPasswordHashesForTests(): void {
  cost = 2 ** 10;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const params = { ...PARAMS, N: cost };
  const key = await scrypt(password, salt, KEY_LENGTH, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return crypto.timingSafeEqual(key, expectedKey);
}

/** A real hash of a throwaway password, so an unknown username costs as much time as a wrong password. */
let decoy: Promise<string> | undefined;
export async function spendDecoyVerification(password: string): Promise<void> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}
