import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PROCESS, serverArgs } from './test/process.js';

/* The real entry points as operators run them: the server process and the admin command. */
const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-process-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'store.db')}`, DEMO_DATA: '0', LOG_LEVEL: 'info', HOST: '127.0.0.1' };
/*
 * A port of this process's own; not one of those fetch refuses to connect to (the Fetch standard's "bad ports": 6665 to
 * 6669 are IRC's), which made this file fail whenever the process id fell on one.
 */
const FETCH_BAD_PORTS = new Set([5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697]);
let PORT = 5000 + (process.pid % 2000);
while (FETCH_BAD_PORTS.has(PORT)) PORT++;
let server: ChildProcess;
let output = '';

const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], { env });

async function waitForHealth(url: string) {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${output}`);
}

/**
 * A server process started as operators start it, once it says it is running (every worker listening). Waiting for the
 * banner rather than for a number of polls: on a loaded machine (a clean clone compiling the server in three processes
 * beside the rest of the suite) starting took over 20 s.
 */
async function started(processEnv: NodeJS.ProcessEnv, onOutput: (text: string) => void): Promise<ChildProcess> {
  const child = spawn(process.execPath, await serverArgs(), { env: processEnv });
  let text = '';
  return new Promise<ChildProcess>((resolve, reject) => {
    const take = (d: Buffer) => {
      text += d;
      onOutput(String(d));
      if (text.includes('Ringbook is running')) resolve(child);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${text}`)));
  });
}

/** How long a test that starts a server of its own may take: as long as the suite's hooks give one to start. */
const STARTING_MS = 60_000;

beforeAll(async () => {
  server = await started({ ...env, PORT: String(PORT), WORKERS: '2' }, (text) => (output += text));
  await waitForHealth(`http://127.0.0.1:${PORT}/healthz`);
});
afterAll(() => {
  server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('start-up', () => {
  it('prints the address it serves', () => {
    expect(output).toContain(`Ringbook is running at http://localhost:${PORT}`);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://db/ringbook' }, 'DATABASE_URL'],
    // Every server on one PostgreSQL database must derive the same tokens: the key cannot be a file beside it.
    [{ DATABASE_URL: 'postgres://db/ringbook' }, 'SECRET_KEY'],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
    [{ WORKERS: '0' }, 'WORKERS'],
  ])('stops with a clear message on a wrong setting %j', async (bad, name) => {
    const failure = await run(process.execPath, await serverArgs(), { env: { ...env, ...bad } }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(new RegExp(`Invalid configuration:\\n\\s+${name}: `));
  });

  it(
    'stops by itself when its workers cannot listen (the port is taken)',
    async () => {
      const taken = http.createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => taken.once('listening', resolve));
      const port = String((taken.address() as { port: number }).port);
      try {
        const failure = await run(process.execPath, await serverArgs(), {
          env: { ...env, PORT: port, WORKERS: '2', DATA_DIR: fs.mkdtempSync(path.join(dir, 'taken-')) },
          timeout: STARTING_MS,
        }).catch((e) => e);
        // Exited by itself with 1 (a primary left waiting would be killed by the time-out: code null, signal SIGTERM).
        expect(failure.code).toBe(1);
        expect(failure.stdout + failure.stderr).toMatch(/a worker exited \(code 1\) before it could serve; stopping/);
      } finally {
        taken.close();
      }
    },
    STARTING_MS + 5_000,
  );
});

const childPids = async (pid: number) => {
  const { stdout } = await run('pgrep', ['-P', String(pid), '-f', SERVER_PROCESS]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter(Boolean).map(Number);
};

describe('workers', () => {
  it('serves from WORKERS processes and replaces one that dies', async () => {
    const workers = await childPids(server.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    for (let i = 0; i < 100 && !output.includes('worker exited; starting another'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('worker exited; starting another');
    let now: number[] = [];
    for (let i = 0; i < 100 && now.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = await childPids(server.pid!);
    }
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
    for (let i = 0; i < 20; i++) expect((await fetch(`http://127.0.0.1:${PORT}/healthz`)).status).toBe(200);
  });

  it(
    'serves from the one process with WORKERS=1 and stops on SIGTERM',
    async () => {
      const port = PORT + 1;
      let text = '';
      const single = await started({ ...env, PORT: String(port), WORKERS: '1' }, (d) => (text += d));
      const exited = new Promise<number | null>((resolve) => single.once('exit', resolve));
      try {
        await waitForHealth(`http://127.0.0.1:${port}/healthz`);
        expect(text).toContain(`Ringbook is running at http://localhost:${port}`);
        expect(await childPids(single.pid!)).toEqual([]);
      } finally {
        single.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
    STARTING_MS,
  );
});

describe('admin create-vendor', () => {
  it('creates a vendor while the server runs and prints its member record with a working token', async () => {
    const { stdout } = await admin('create-vendor', '--username', 'ops', '--password', 'long enough', '--email', 'ops@example.com');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const member = JSON.parse(lines[0]!);
    expect(member).toMatchObject({
      username: 'ops',
      email_address: 'ops@example.com',
      role: 'vendor',
      oauth: { bearer_token: expect.stringMatching(/^rb_/) },
    });
    const me = await fetch(`http://127.0.0.1:${PORT}/rest/1/members/me`, {
      headers: { authorization: `Bearer ${member.oauth.bearer_token}` },
    });
    expect(me.status).toBe(200);
    expect((await me.json()).members.members.user_id).toBe(member.user_id);
  });

  it.each([
    [['create-vendor', '--username', 'x1', '--password', 'short', '--email', 'a@b.co'], /--password: /],
    [['create-vendor', '--username', 'x2', '--password', 'long enough', '--email', 'nope'], /--email: /],
    [['create-vendor', '--username', 'ops', '--password', 'long enough', '--email', 'a@b.co'], /username "ops" is taken/],
    [['drop-tables'], /unknown command/],
  ])('refuses %j with a message and a non-zero exit', async (args, message) => {
    const failure = await admin(...args).catch((e) => e);
    expect(failure.code).toBeGreaterThan(0);
    expect(failure.stderr).toMatch(message);
  });
});

describe('shutdown', () => {
  it('finishes a request in flight, then closes the store and exits 0 on SIGTERM', async () => {
    const { stdout } = await admin('create-vendor', '--username', 'late', '--password', 'long enough', '--email', 'late@example.com');
    const token = JSON.parse(stdout).oauth.bearer_token as string;
    const body = JSON.stringify({ first_name: 'Finished', last_name: 'Before exit' });
    const half = Math.floor(body.length / 2);
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: PORT,
          method: 'POST',
          path: '/rest/1/contacts',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, half));
      setTimeout(() => {
        server.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(half)), 300);
      }, 300);
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    const reply = await answered;
    expect(reply.status, reply.text).toBe(201);
    expect(await exited).toBe(0);
    expect(output).toContain('store closed');
    expect(output).not.toMatch(/rb_[A-Za-z0-9_-]{20,}/);
  });
});
