import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server key that personal access tokens are derived from. It lives outside the store (SECRET_KEY or a
 * 0600 file beside the database), so a copy of the database alone reveals no usable token.
 */
export function loadSecretKey(secretKey: string | undefined, databaseFile: string): Buffer {
  if (secretKey) return Buffer.from(secretKey, 'utf8');
  if (databaseFile === ':memory:') return crypto.randomBytes(32);
  const file = path.join(path.dirname(path.resolve(databaseFile)), `${path.basename(databaseFile)}.key`);
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}
