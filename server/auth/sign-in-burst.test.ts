import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from '../test/process.js';
import { testStoreFolder } from '../test/process-store.js';
import { SIGN_IN_LIMITS } from './login-throttle.js';

/*
 * Finding 1 of the defences issue: attempts are counted before the password is checked, across processes, on the test
 * store (TEST_DATABASE=postgres: the two workers count in one PostgreSQL database, each with its own pool).
 */
let folder: StoreFolder;
let server: ServerProcess;

beforeAll(async () => {
  folder = await testStoreFolder();
  await vendorIn(folder, 'burst-target', 'the right password');
  server = await startServerProcess(folder, { WORKERS: '2' });
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await folder?.remove();
});

const signIn = (password: string) =>
  fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
    body: JSON.stringify({ username: 'burst-target', password }),
  }).then((r) => r.status);

it('checks at most the documented number of 100 parallel wrong passwords for one account, on two workers', async () => {
  const statuses = await Promise.all(Array.from({ length: 100 }, () => signIn('a wrong password')));
  const checked = statuses.filter((s) => s === 401).length;
  const refused = statuses.filter((s) => s === 429).length;
  process.stdout.write(`burst: 100 parallel wrong passwords, ${checked} checked (401), ${refused} refused (429)\n`);
  expect(checked).toBe(SIGN_IN_LIMITS.pair);
  expect(refused).toBe(100 - SIGN_IN_LIMITS.pair);
  expect(await signIn('the right password')).toBe(429);
}, 60_000);
