/*
 * The HTTP half of the benchmark: the real server in its own process (as operators run it) and autocannon
 * scenarios against it, with latencies kept at sub-millisecond precision.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import { loadAverage } from './dial-load.js';
import type { BenchStore } from './store.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type RunningServer = {
  url: string;
  /** The server's primary process (with WORKERS=1, the one process that serves). */
  pid: number;
  stop(): Promise<void>;
  /** CPU time the server's processes (the primary and its workers) have used so far, in ms; NaN where /proc is missing. */
  cpuMs(): number;
};

export type Scenario = { name: string; token: string; method?: 'GET' | 'POST' | 'PUT'; next: () => { path: string; body?: string } };

export type ScenarioResult = {
  name: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  samples: string[];
  /** Server CPU per request, in microseconds: steadier than req/s on a machine whose other load comes and goes. */
  cpuPerRequest: number;
  /** The machine's load average over the last minute, as the scenario ended. */
  load: string;
};

/* utime and stime (fields 14 and 15 of /proc/<pid>/stat) of a process and its children, in ms (clock ticks of 10 ms). */
export function cpuOfTree(pid: number): number {
  let fields: string[];
  try {
    fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return fs.existsSync('/proc/self/stat') ? 0 : NaN;
  }
  return (Number(fields[11]) + Number(fields[12])) * 10 + childrenOf(pid).reduce((sum, child) => sum + cpuOfTree(child), 0);
}

/** A process's peak resident set (VmHWM) in MB; NaN where /proc is missing. */
export function peakRssMb(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The server's store: a SQLite file, or a bench store (bench/store.ts) with what its servers need beside its URL. */
export type ServerStore = string | Pick<BenchStore, 'url' | 'env'>;

export async function startServer(store: ServerStore, settings: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const port = await freePort();
  const { url: databaseUrl, env: storeEnv } = typeof store === 'string' ? { url: `sqlite:${store}`, env: {} } : store;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    ...storeEnv,
    ...settings,
  };
  // The key must be the bench's: on SQLite the file beside the database, the one the bench derived its tokens from.
  if (!storeEnv.SECRET_KEY) delete env.SECRET_KEY;
  // BENCH_CPU_PROF=<dir>: every server process (the primary and its workers) writes a CPU profile there as it exits.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  // BENCH_SERVER_ROOT=<dir>: the server of another checkout, on the same store, to compare two versions under the same load.
  const cwd = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : root;
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/index.ts'], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  // Long enough for a start on a machine whose other load takes most of its cores (a load average of 20 on 2 had taken over 90 s).
  await waitForHealth(url, child, 300_000);
  return {
    url,
    pid: child.pid!,
    cpuMs: () => cpuOfTree(child.pid!),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode} before it answered /healthz.`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`The server did not answer ${url}/healthz within ${timeoutMs / 1000} s.`);
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Runs one scenario: first `warmup` seconds unmeasured (the JIT compiles the hot paths, every worker's page cache
 * fills), then `duration` seconds measured.
 */
export async function runScenario(
  server: Pick<RunningServer, 'url' | 'cpuMs'>,
  scenario: Scenario,
  options: { duration: number; connections: number; warmup: number },
): Promise<ScenarioResult> {
  if (options.warmup > 0) await runScenario(server, scenario, { ...options, duration: options.warmup, warmup: 0 });
  const { url } = server;
  const cpuBefore = server.cpuMs();
  const latencies: number[] = [];
  const samples: string[] = [];
  const request: Request = {
    method: scenario.method ?? 'GET',
    headers: { authorization: `Bearer ${scenario.token}`, 'content-type': 'application/json', accept: 'application/json' },
    setupRequest: (req) => ({ ...req, ...scenario.next() }),
    onResponse: (status, body) => {
      if ((status < 200 || status > 299) && samples.length < 3) samples.push(`${status} ${body.slice(0, 300)}`);
    },
  };
  const instance = autocannon({ url, connections: options.connections, duration: options.duration, requests: [request] });
  // autocannon's own histogram rounds to whole milliseconds; the 'response' event carries the exact duration.
  instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  const cpu = server.cpuMs() - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    samples,
    cpuPerRequest: (cpu * 1000) / Math.max(1, result.requests.total),
    load: loadAverage().split(' ')[0]!,
  };
}
