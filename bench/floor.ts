/*
 * The floor beside each read scenario (issue 18): the same requests, answered by Ringbook and by a bare node:http
 * server with Ringbook's own bytes for them (bench/floor-server.ts, as many processes as Ringbook's), taken in turns
 * in the same run: one connection, then ten, Ringbook then the floor, for a few rounds. The ratios are the figures to
 * move; absolute numbers on a shared machine vary with its other load, and the turns give both the same share of it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuOfTree, freePort, percentile, type RunningServer, runScenario, type Scenario, type ScenarioResult } from './http.js';

export type FloorOptions = { duration: number; warmup: number; rounds: number; processes: number; requests: number };
type Side = { perSecond: number; p50At1: number; p99At10: number; cpuPerRequest: number };
export type FloorRow = { name: string; bytes: number; ringbook: Side; floor: Side };

/* Headers that belong to one connection or one moment, not to the answer: the floor writes its own. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

type Reply = { path: string; status: number; headers: Record<string, string>; body: string };

/** Asks Ringbook each of `count` requests of the scenario once, keeping what it answered. */
async function record(server: RunningServer, scenario: Scenario, count: number): Promise<Reply[]> {
  const paths = [...new Set(Array.from({ length: count }, () => scenario.next().path))];
  const replies: Reply[] = [];
  for (const p of paths) {
    const res = await fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${scenario.token}`, accept: 'application/json' } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${scenario.name}: ${p} answered ${res.status} ${body.toString().slice(0, 200)}`);
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !OWN_HEADERS.has(name)));
    replies.push({ path: p, status: res.status, headers, body: body.toString('base64') });
  }
  return replies;
}

async function startFloor(file: string, processes: number): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'floor-server.ts'), file, String(port), String(processes)],
    {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`The floor server exited with code ${code} before it listened.`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    cpuMs: () => cpuOfTree(child.pid!),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function side(at1: ScenarioResult[], at10: ScenarioResult[]): Side {
  return {
    perSecond: median(at10.map((r) => r.perSecond)),
    p50At1: median(at1.map((r) => r.p50)),
    p99At10: median(at10.map((r) => r.p99)),
    cpuPerRequest: median(at10.map((r) => r.cpuPerRequest)),
  };
}

/** One scenario against Ringbook and its floor, in turns; `ringbook` is a running server of the bench's store. */
async function floorOf(ringbook: RunningServer, scenario: Scenario, opts: FloorOptions, dir: string): Promise<FloorRow> {
  const replies = await record(ringbook, scenario, opts.requests);
  const file = path.join(dir, `${scenario.name}.json`);
  fs.writeFileSync(file, JSON.stringify(replies));
  let i = 0;
  const replay: Scenario = { ...scenario, method: 'GET', next: () => ({ path: replies[i++ % replies.length]!.path }) };
  const floor = await startFloor(file, opts.processes);
  const runs = {
    ringbook: { 1: [] as ScenarioResult[], 10: [] as ScenarioResult[] },
    floor: { 1: [] as ScenarioResult[], 10: [] as ScenarioResult[] },
  };
  try {
    for (let round = 0; round < opts.rounds; round++)
      for (const connections of [1, 10] as const)
        for (const [name, server] of [
          ['ringbook', ringbook],
          ['floor', floor],
        ] as const)
          runs[name][connections].push(await runScenario(server, replay, { duration: opts.duration, warmup: opts.warmup, connections }));
  } finally {
    await floor.stop();
  }
  const refused = [...runs.ringbook[1], ...runs.ringbook[10], ...runs.floor[1], ...runs.floor[10]].filter((r) => r.non2xx || r.errors);
  if (refused.length)
    throw new Error(`${scenario.name}: ${refused.length} runs had answers other than 2xx or errors: ${refused[0]!.samples[0] ?? ''}`);
  const bytes = replies.reduce((sum, r) => sum + Buffer.byteLength(r.body, 'base64'), 0) / replies.length;
  return { name: scenario.name, bytes, ringbook: side(runs.ringbook[1], runs.ringbook[10]), floor: side(runs.floor[1], runs.floor[10]) };
}

export async function runFloor(ringbook: RunningServer, scenarios: Scenario[], opts: FloorOptions, log: (line: string) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-floor-'));
  const rows: FloorRow[] = [];
  try {
    for (const scenario of scenarios) {
      log(`  running ${scenario.name} and its floor ...`);
      rows.push(await floorOf(ringbook, scenario, opts, dir));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printFloor(rows, opts, log);
  return rows;
}

/* Issue 18's targets: list and get at 60 % of the floor's requests a second or better, p50 at one connection at most twice. */
const TARGETS: Record<string, (r: FloorRow) => boolean> = {
  list: (r) => r.ringbook.perSecond / r.floor.perSecond >= 0.6 && r.ringbook.p50At1 / r.floor.p50At1 <= 2,
  get: (r) => r.ringbook.perSecond / r.floor.perSecond >= 0.6 && r.ringbook.p50At1 / r.floor.p50At1 <= 2,
};

function printFloor(rows: FloorRow[], opts: FloorOptions, log: (line: string) => void) {
  const f = (n: number, digits = 2) => n.toFixed(digits);
  log('');
  log(
    `Floor: the same requests answered with Ringbook's bytes by a bare node:http server (${opts.processes} processes), in turns, ` +
      `${opts.rounds} rounds of ${opts.duration} s (after ${opts.warmup} s) at 1 and at 10 connections; medians of the rounds`,
  );
  log(
    'scenario         bytes   req/s@10  floor   ratio   p50@1 ms  floor   ratio   p99@10 ms  floor   ratio  cpu us/req  floor  target met',
  );
  for (const r of rows) {
    const met = TARGETS[r.name];
    log(
      `${r.name.padEnd(14)} ${f(r.bytes, 0).padStart(7)} ${f(r.ringbook.perSecond, 0).padStart(10)} ${f(r.floor.perSecond, 0).padStart(6)} ` +
        `${(f((100 * r.ringbook.perSecond) / r.floor.perSecond, 0) + ' %').padStart(7)} ${f(r.ringbook.p50At1).padStart(10)} ${f(r.floor.p50At1).padStart(6)} ` +
        `${(f(r.ringbook.p50At1 / r.floor.p50At1, 1) + 'x').padStart(7)} ${f(r.ringbook.p99At10).padStart(11)} ${f(r.floor.p99At10).padStart(6)} ` +
        `${(f(r.ringbook.p99At10 / r.floor.p99At10, 1) + 'x').padStart(7)} ${f(r.ringbook.cpuPerRequest, 0).padStart(11)} ${f(r.floor.cpuPerRequest, 0).padStart(6)}  ` +
        `${met ? (met(r) ? 'yes' : 'NO') : ''}`,
    );
  }
  log("ratio: Ringbook / floor (req/s as a share of the floor's; latencies as a multiple). target (list, get): >= 60 % and p50@1 <= 2x");
}
