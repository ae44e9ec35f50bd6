/**
 * Operator commands against the store named by DATABASE_URL. Safe while the server runs: writes wait for
 * the server's transactions (busy_timeout) and the server sees the result at its next query.
 *   npm run --silent admin -- create-vendor --username U --password P --email E [--first-name F] [--last-name L]
 *   npm run --silent admin -- copy-store --from sqlite:<file> --to postgres://…|sqlite:<new file>
 *     copies every organisation's data into a new, empty store (db/copy-store.ts; docs/store.md, "Moving an existing
 *     store"): exit code 0 when every count agrees, 1 when one differs or the copy failed, 2 when refused.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { secretKeyOf } from './auth/secret-key.js';
import { personalToken } from './auth/tokens.js';
import { ConfigError, loadConfig } from './config.js';
import { createMemberBody } from './contracts/members.js';
import { openStore } from './db/database.js';
import { copyStore, CopyRefused, countTable, type DerivedIndex } from './db/copy-store.js';
import { indexTranscriptsAfter, TRANSCRIPT_INDEX_TABLES } from './db/transcript-index.js';
import { DomainError } from './lib/errors.js';
import { CONTACT_SEARCH_TABLES, reindexContactsAfter, settleContactSearch } from './modules/contacts/contact-search.repository.js';
import { createVendor } from './modules/members/members.service.js';
import { toMemberRecord } from './auth/member-record.js';

const USAGE = [
  'usage: npm run --silent admin -- create-vendor --username U --password P --email E [--first-name F] [--last-name L]',
  '       npm run --silent admin -- copy-store --from sqlite:<file> --to postgres://user@host:port/database|sqlite:<new file>',
].join('\n');

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
    const secretKey = secretKeyOf(config);
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

/** The indexes each store keeps its own way: a copy rebuilds them on the target from the copied rows. */
const DERIVED_INDEXES: DerivedIndex[] = [
  { name: 'contacts search', tables: CONTACT_SEARCH_TABLES, indexAfter: reindexContactsAfter, settle: settleContactSearch },
  { name: 'transcripts words', tables: TRANSCRIPT_INDEX_TABLES, indexAfter: indexTranscriptsAfter },
];

async function copyStoreCommand(args: string[]) {
  let values: { from?: string; to?: string };
  try {
    ({ values } = parseArgs({ args, options: { from: { type: 'string' }, to: { type: 'string' } } }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const result = await copyStore({ from: values.from ?? '', to: values.to ?? '', derived: DERIVED_INDEXES, print });
    print(countTable(result.counts));
    if (!result.ok) {
      process.stderr.write('the counts differ: the copy is incomplete; drop the target and copy again\n');
      process.exitCode = 1;
    } else {
      print('every count agrees');
    }
  } catch (error) {
    if (error instanceof CopyRefused && error.badArguments) throw new UsageError(error.message);
    throw error;
  }
}

class UsageError extends Error {}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'create-vendor') return createVendorCommand(rest);
  if (command === 'copy-store') return copyStoreCommand(rest);
  throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
  else if (error instanceof ConfigError || error instanceof CopyRefused) process.stderr.write(`${error.message}\n`);
  else if (error instanceof DomainError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(error instanceof UsageError || error instanceof CopyRefused ? 2 : 1);
});
