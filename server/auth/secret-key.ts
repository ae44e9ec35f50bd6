import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server key that personal access tokens are derived from. It lives outside the store (SECRET_KEY or a
 * 0600 file beside the database), so a copy of the database alone reveals no usable token.
 */
export function loadSecretKey(secretKey: string | undefined, databaseFile: string): Buffer {
  if (secretKey) return keyOfSetting(secretKey);
  if (databaseFile === ':memory:') return crypto.randomBytes(32);
  const file = path.join(path.dirname(path.resolve(databaseFile)), `${path.basename(databaseFile)}.key`);
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * SECRET_KEY's text is the key; `base64:<the key file's contents>` is the key file's key, so servers on a store copied
 * from a SQLite store that kept its key in a file (admin copy-store) derive the same tokens.
 */
export const keyOfSetting = (secretKey: string): Buffer =>
  secretKey.startsWith('base64:') ? Buffer.from(secretKey.slice('base64:'.length), 'base64') : Buffer.from(secretKey, 'utf8');

/** The key of a configured server: SECRET_KEY, or (on the embedded store) the key file beside the database. */
export function secretKeyOf(config: { secretKey: string | undefined; databaseUrl: string }): Buffer {
  if (config.secretKey) return keyOfSetting(config.secretKey);
  if (!config.databaseUrl.startsWith('sqlite:')) throw new Error('SECRET_KEY is required with a PostgreSQL store.');
  return loadSecretKey(undefined, config.databaseUrl.slice('sqlite:'.length));
}
