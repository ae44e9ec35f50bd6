import { onPostgres, postgresDatabase } from './databases.js';
import type { TestServer } from './harness.js';
import { type StoreFolder, storeFolder } from './process.js';

/*
 * The test store for server processes: with TEST_DATABASE=postgres, a PostgreSQL database of the test's own (a copy of
 * the migrated template, dropped by `remove`), else the SQLite store of `storeFolder()`. The folder is the processes'
 * DATA_DIR either way. This module, unlike test/process.ts, imports test/databases.ts: a test file that imports it runs
 * in the PostgreSQL part of `npm test` (scripts/test-all.mjs, storeTestFiles), so only tests whose point is the store
 * should.
 */
export async function testStoreFolder(): Promise<StoreFolder> {
  const folder = storeFolder();
  if (!onPostgres) return folder;
  const database = await postgresDatabase();
  return {
    ...folder,
    databaseUrl: database.url,
    remove: async () => {
      await database.drop();
      await folder.remove();
    },
  };
}

/**
 * A folder for a server process on the store of an in-process test server: the same database and key (its tokens hold
 * there), and a DATA_DIR of its own. Its `remove` deletes that folder only: the database is the test server's.
 */
export function folderOn(server: TestServer): StoreFolder {
  const { databaseUrl, secretKey } = server.ctx.config;
  if (!secretKey) throw new Error('The test server has no SECRET_KEY to share.');
  return { ...storeFolder(), databaseUrl, secretKey };
}
