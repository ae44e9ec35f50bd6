// npm run test:e2e: build the web app when needed, then run the Playwright journeys against a fresh store: a SQLite
// file, or with E2E_STORE=postgres a database of their own on the tests' PostgreSQL (scripts/test-postgres.mjs),
// dropped after them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { testPostgres, withClient } from './test-postgres.mjs';
import { ensureServerBuild } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

ensureWebBuild();
await ensureServerBuild();
fs.rmSync('.tmp/e2e', { recursive: true, force: true });
const env = { ...process.env };
let done = async () => {};
if (process.env.E2E_STORE === 'postgres') {
  const server = await testPostgres();
  const name = `rb_e2e_${process.pid}`;
  const admin = (sql) => withClient(server.url, (c) => c.query(sql));
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  env.E2E_DATABASE_URL = url.toString();
  console.log(`Journeys on PostgreSQL: database ${name} on ${server.where}`);
  done = async () => {
    await admin(`drop database if exists ${name} with (force)`).catch(() => {});
    server.stop();
  };
}
// Ctrl-C reaches Playwright too: it stops the journeys and their server, and then this script drops their database.
process.on('SIGINT', () => {});
const result = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});
await done();
process.exit(result.status ?? 1);
