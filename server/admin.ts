/**
 * Operator commands against the store named by DATABASE_URL. Safe while the server runs: writes wait for
 * the server's transactions (busy_timeout) and the server sees the result at its next query.
 *   npm run --silent admin -- create-vendor --username U --password P --email E [--first-name F] [--last-name L]
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadSecretKey } from './auth/secret-key.js';
import { personalToken } from './auth/tokens.js';
import { ConfigError, loadConfig } from './config.js';
import { createMemberBody } from './contracts/members.js';
import { openStore, sqlitePath } from './db/database.js';
import { ApiError } from './lib/errors.js';
import { createVendor } from './modules/members/members.service.js';
import { toMemberRecord } from './auth/member-record.js';

const USAGE = 'usage: npm run --silent admin -- create-vendor --username U --password P --email E [--first-name F] [--last-name L]';

const vendorArgs = createMemberBody
  .pick({ username: true, password: true, email: true })
  .extend({ 'first-name': z.string().max(100).optional(), 'last-name': z.string().max(100).optional() });

async function createVendorCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  });
  const parsed = vendorArgs.safeParse(values);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n'));
  }
  const config = loadConfig();
  const store = await openStore(config.databaseUrl);
  try {
    const secretKey = loadSecretKey(config.secretKey, sqlitePath(config.databaseUrl));
    const { username, password, email } = parsed.data;
    const member = await createVendor(
      { store, secretKey },
      {
        username,
        password,
        email,
        firstName: parsed.data['first-name'],
        lastName: parsed.data['last-name'],
      },
    );
    process.stdout.write(`${JSON.stringify(toMemberRecord(member, personalToken(secretKey, member)))}\n`);
  } finally {
    await store.close();
  }
}

class UsageError extends Error {}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'create-vendor') return createVendorCommand(rest);
  throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof ApiError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
