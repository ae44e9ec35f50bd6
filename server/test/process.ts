import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild, SERVER_BUNDLE, SERVER_COMMAND } from '../../scripts/server-build.mjs';
import { openStore } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { createVendor } from '../modules/members/members.service.js';

/*
 * The server as operators run it (npm start: the built server, scripts/server-build.mjs) in its own process group, on a
 * store in a temporary folder, so tests can send it signals (kill -9 included) and start it again on the same store.
 */

/** Node's arguments that start the server as npm start does, its build brought up to date with the sources first. */
export async function serverArgs(): Promise<string[]> {
  await ensureServerBuild();
  return SERVER_COMMAND;
}

/** What the server's processes (the primary and its workers) have in their command line, for `pgrep -f`. */
export const SERVER_PROCESS = SERVER_BUNDLE;

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Waits for the process to exit after `signal` (to its whole group), answering its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** `dir` is the server's DATA_DIR (recordings, the carrier's files); `remove` deletes it and the store. */
export type StoreFolder = { dir: string; databaseUrl: string; secretKey: string; remove(): Promise<void> };

/*
 * A SQLite store in the folder, whatever TEST_DATABASE says: most process tests are about processes, not the store.
 * A test whose point is the store asks for the test store instead (`testStoreFolder()` in test/process-store.ts, kept
 * apart so that only the files importing it run in the PostgreSQL part of `npm test`).
 */
export function storeFolder(): StoreFolder {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-process-'));
  return {
    dir,
    databaseUrl: `sqlite:${path.join(dir, 'store.db')}`,
    secretKey: crypto.randomBytes(32).toString('base64'),
    remove: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A vendor in the folder's store, made before any server opens it. */
export async function vendorIn(folder: StoreFolder, username: string, password: string): Promise<Member> {
  const store = await openStore(folder.databaseUrl);
  try {
    return await createVendor(
      { store, secretKey: Buffer.from(folder.secretKey, 'utf8') },
      { username, password, email: `${username}@example.com` },
    );
  } finally {
    await store.close();
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/*
 * Servers started here that have not exited. A test that times out while its server starts or runs leaves the server
 * behind (its stop is never called): whatever is left when this process exits is killed, group and all, so no server
 * outlives the test run (one did: a primary on 0.0.0.0 still running 40 minutes after its test timed out).
 */
const running = new Set<number>();
const killGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
};
process.on('exit', () => running.forEach(killGroup));

/** `env.PORT`, when given, is the port it listens on; else a free one. */
export async function startServerProcess(folder: StoreFolder, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = Number(env.PORT ?? 0) || (await freePort());
  const child = spawn(process.execPath, await serverArgs(), {
    detached: true,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATABASE_URL: folder.databaseUrl,
      SECRET_KEY: folder.secretKey,
      // The folder of a SQLite store already; a PostgreSQL one would default to ./data in the checkout.
      DATA_DIR: folder.dir,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
  });
  running.add(child.pid!);
  child.once('exit', () => running.delete(child.pid!));
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const workers = Number(env.WORKERS ?? 1);
  // Ready once every worker listens: the banner comes then.
  // (Two minutes at most: on a loaded machine two workers and the carrier take well over 30 s to start.)
  for (let i = 0; i < 2_400 && !output.includes('Ringbook is running'); i++) {
    if (child.exitCode !== null) throw new Error(`The server exited before it served:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!output.includes('Ringbook is running')) {
    killGroup(child.pid!);
    throw new Error(`The server did not start (${workers} workers):\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      return exited;
    },
  };
}

/**
 * A request on a connection of its own (`connection: close`), so a cluster's workers, or servers behind one address,
 * each get their share: its status and its JSON body (null when empty).
 */
export async function freshRequest(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close', ...headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
