/*
 * The store the journeys' server runs on (scripts/e2e.mjs makes it: a SQLite file by default, a fresh PostgreSQL
 * database with E2E_STORE=postgres), shared by playwright.config.ts and the fixtures that run operator commands on it.
 */
export const databaseUrl = process.env.E2E_DATABASE_URL ?? 'sqlite:.tmp/e2e/ringbook.db';

export const storeEnv: Record<string, string> = {
  DATABASE_URL: databaseUrl,
  DATA_DIR: '.tmp/e2e',
  // Required on PostgreSQL (every server on a store derives the same tokens); any 32 characters do for a test.
  ...(databaseUrl.startsWith('postgres') ? { SECRET_KEY: 'e2e-journeys-secret-key-0123456789abcdef' } : {}),
};
