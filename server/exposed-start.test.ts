import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './seed/demo.js';
import { serverArgs, startServerProcess, type StoreFolder, storeFolder, vendorIn } from './test/process.js';

/* A server reachable from other machines does not seed, or serve, demo accounts with the published password unless asked. */
const run = promisify(execFile);
const folders: StoreFolder[] = [];
const folder = () => {
  const f = storeFolder();
  folders.push(f);
  return f;
};
afterAll(() => Promise.all(folders.map((f) => f.remove())));

const start = async (f: StoreFolder, env: Record<string, string>) =>
  run(process.execPath, await serverArgs(), {
    env: { ...process.env, DATABASE_URL: f.databaseUrl, SECRET_KEY: f.secretKey, PORT: '0', LOG_LEVEL: 'warn', ...env },
    timeout: 30_000,
  }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );

it('listens on 127.0.0.1 by default', async () => {
  const server = await startServerProcess(folder(), { HOST: '' });
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // From this machine's own network address (as another machine would come), nothing answers. A machine with no
    // address but loopback has no such door to try.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (outside) await expect(fetch(`http://${outside.address}:${new URL(server.url).port}/healthz`)).rejects.toThrow();
  } finally {
    await server.stop();
  }
  // A process start on a loaded machine took over 20 s once (the default time-out).
}, 60_000);

it('does not seed demo data on 0.0.0.0 unless DEMO_DATA=1, and says so', async () => {
  const f = folder();
  const server = await startServerProcess(f, { HOST: '0.0.0.0', DEMO_DATA: '' });
  try {
    expect(server.output()).toMatch(/Not seeding demo data: HOST=0\.0\.0\.0 is reachable from other machines/);
    expect(server.output()).not.toContain('Demo logins');
  } finally {
    await server.stop();
  }
}, 60_000);

it('refuses to serve a store with demo accounts on 0.0.0.0, and serves it when asked with DEMO_DATA=1', async () => {
  const f = folder();
  await vendorIn(f, 'vendor', DEMO_PASSWORD);
  const refused = await start(f, { HOST: '0.0.0.0', DEMO_DATA: '' });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/demo accounts with the published password \(vendor\).*DEMO_DATA=1/s);
  const server = await startServerProcess(f, { HOST: '0.0.0.0', DEMO_DATA: '1' });
  expect(server.output()).toContain('Ringbook is running');
  await server.stop();
}, 60_000);
