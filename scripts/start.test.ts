import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { freePort, type StoreFolder, storeFolder } from '../server/test/process.js';
import { ensureWebBuild } from './web-build.mjs';

/*
 * Issue 19, finding 7: supervisors signal the process they started (`npm start`, or a shell running it); the whole
 * server, workers included, must stop cleanly whichever of them gets SIGTERM.
 */
const run = promisify(execFile);
let folder: StoreFolder | undefined;
let group: number | undefined;

beforeAll(() => ensureWebBuild(), 180_000);
afterEach(async () => {
  if (group) await run('pkill', ['-KILL', '-g', String(group)]).catch(() => undefined);
  await folder?.remove();
  group = undefined;
});

const inGroup = async (pgid: number) =>
  (await run('pgrep', ['-g', String(pgid)]).catch(() => ({ stdout: '' }))).stdout.trim().split('\n').filter(Boolean);

/** Starts `command` as its own job (a process group, as a shell or supervisor does) and waits for the server's banner. */
async function startJob(command: string, args: string[]): Promise<ChildProcess> {
  folder = storeFolder();
  const port = await freePort();
  const child = spawn(command, args, {
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: folder.databaseUrl,
      SECRET_KEY: folder.secretKey,
      DEMO_DATA: '0',
      WORKERS: '2',
      LOG_LEVEL: 'warn',
    },
  });
  group = child.pid!;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (d: Buffer) => {
      output += d;
      if (output.includes('Ringbook is running')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () => reject(new Error(`exited before serving:\n${output}`)));
  });
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
  return child;
}

/** Waits for every process of the job to be gone, answering those left after 20 s. */
async function leftAfterStop(pgid: number): Promise<string[]> {
  const started = Date.now();
  while ((await inGroup(pgid)).length && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
  return inGroup(pgid);
}

it.each([
  ['npm start itself', 'npm', ['start']],
  ['the shell that runs npm start', 'sh', ['-c', 'npm start']],
])(
  'stops, workers and all, when %s gets SIGTERM',
  async (_who, command, args) => {
    const child = await startJob(command, args);
    expect((await inGroup(child.pid!)).length).toBeGreaterThanOrEqual(5);
    process.kill(child.pid!, 'SIGTERM');
    expect(await leftAfterStop(child.pid!)).toEqual([]);
  },
  240_000,
);
