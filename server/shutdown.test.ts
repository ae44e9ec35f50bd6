import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess, type StoreFolder, storeFolder, vendorIn } from './test/process.js';
import { personalToken } from './auth/tokens.js';

/*
 * Issue 9, part 6: the server exits on SIGTERM within its grace period in every case, including when the process
 * reading its output goes away right after the signal (its writes then fail with EPIPE).
 */
const run = promisify(execFile);
let folder: StoreFolder;
let server: ServerProcess;

beforeAll(async () => {
  folder = storeFolder();
  const vendor = await vendorIn(folder, 'shutdown-vendor', 'a long password');
  server = await startServerProcess(folder, { WORKERS: '2', LOG_LEVEL: 'info' });
  const token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
  for (let i = 0; i < 20; i++) {
    const reply = await fetch(`${server.url}/rest/1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: `Write ${i}` }),
    });
    expect(reply.status).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL').catch(() => undefined);
  await folder?.remove();
});

const alive = async (group: number) =>
  (await run('pgrep', ['-g', String(group)]).catch(() => ({ stdout: '' }))).stdout.trim().split('\n').filter(Boolean);

it('exits, workers and all, when the reader of its output goes away right after SIGTERM', async () => {
  const group = server.child.pid!;
  expect((await alive(group)).length).toBeGreaterThanOrEqual(3);
  process.kill(-group, 'SIGTERM');
  server.child.stdout!.destroy();
  server.child.stderr!.destroy();
  const started = Date.now();
  while ((await alive(group)).length && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
  expect(await alive(group)).toEqual([]);
}, 30_000);
