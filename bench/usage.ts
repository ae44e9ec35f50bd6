/*
 * npx tsx bench/usage.ts [-- --calls 288000 --members 40 --days 90 --events 1000000 --streams 20 --keep]
 * Cheap requests that must not stall a process: a vendor's usage over 90 days of calls (per member, per day and per
 * disposition label), one request at a time and ten at once, and event streams resuming from the start
 * (Last-Event-ID: 0) over about a million event rows, each timed over HTTP with /healthz timed beside it (one request
 * at a time, 10 ms apart), against the real server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadSecretKey } from '../server/auth/secret-key.js';
import { personalToken } from '../server/auth/tokens.js';
import { openStore } from '../server/db/database.js';
import { openStream } from '../server/test/sse.js';
import { percentile, type RunningServer, startServer } from './http.js';
import { createTeam } from './load.js';
import { loadCallHistory, loadEvents } from './usage-load.js';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '288000' },
    members: { type: 'string', default: '40' },
    days: { type: 'string', default: '90' },
    events: { type: 'string', default: '1000000' },
    streams: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
const opts = {
  calls: Number(args.calls),
  members: Number(args.members),
  days: Number(args.days),
  events: Number(args.events),
  streams: Number(args.streams),
  rounds: Number(args.rounds),
};
const SEQUENTIAL = 50;
const PARALLEL = 10;
const PARALLEL_ROUNDS = 10;
const HEALTH_GAP_MS = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const figures = (label: string, took: number[]) => {
  took.sort((a, b) => a - b);
  return `${label.padEnd(44)} n ${String(took.length).padStart(5)}   p50 ${percentile(took, 50).toFixed(1).padStart(8)} ms   p99 ${percentile(took, 99).toFixed(1).padStart(8)} ms   max ${(took[took.length - 1] ?? NaN).toFixed(1).padStart(8)} ms`;
};

type Beside = { took: number[]; health: number[]; healthFailures: number; cpuMs: number };

/**
 * Runs `work` while /healthz is asked one request at a time beside it; answers both sets of latencies, the health
 * checks that failed, and the CPU time the server's processes spent meanwhile (steadier than latency on a busy machine).
 */
async function besideHealth(server: RunningServer, work: () => Promise<number[]>): Promise<Beside> {
  const health: number[] = [];
  let healthFailures = 0;
  let running = true;
  const checks = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/healthz`);
        await res.text();
        if (res.status === 200) health.push(performance.now() - started);
        else healthFailures++;
      } catch {
        healthFailures++;
      }
      await sleep(HEALTH_GAP_MS);
    }
  })();
  const cpuBefore = server.cpuMs();
  try {
    const took = await work();
    return { took, health, healthFailures, cpuMs: server.cpuMs() - cpuBefore };
  } finally {
    running = false;
    await checks;
  }
}

function report(label: string, result: Beside, per: number, unit: string) {
  log(figures(label, result.took));
  log(`${figures('  /healthz beside it', result.health)}   failed ${result.healthFailures}`);
  log(`  server CPU ${(result.cpuMs / per).toFixed(1)} ms per ${unit}`);
}

async function timedGet(url: string, token: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

/** The usage screen's three reads: figures per member (the contract's), per day and per disposition label (extensions). */
const USAGE_READS = [
  ['usage', 'usage'],
  ['usage/days', 'usage per day'],
  ['usage/dispositions', 'usage per disposition'],
] as const;

async function usageScenarios(server: RunningServer, token: string, range: { firstDay: string; lastDay: string }) {
  for (const [path, label] of USAGE_READS) {
    const url = `${server.url}/rest/1/dialsession/${path}?date_start=${range.firstDay}&date_end=${range.lastDay}`;
    for (let i = 0; i < 5; i++) await timedGet(url, token);
    const one = await besideHealth(server, async () => {
      const took: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) took.push(await timedGet(url, token));
      return took;
    });
    report(`${label}, ${opts.days} days, one at a time`, one, SEQUENTIAL, 'request');
    const ten = await besideHealth(server, async () => {
      const took: number[] = [];
      for (let round = 0; round < PARALLEL_ROUNDS; round++)
        took.push(...(await Promise.all(Array.from({ length: PARALLEL }, () => timedGet(url, token)))));
      return took;
    });
    report(`${label}, ${opts.days} days, ${PARALLEL} at once (${PARALLEL_ROUNDS} rounds)`, ten, PARALLEL * PARALLEL_ROUNDS, 'request');
  }
}

/** Streams resuming from 0, on sessions spread over the store, each until its session's last event has come. */
async function replayScenario(server: RunningServer, token: string, lastIds: Map<number, number>) {
  const sessions = [...lastIds.keys()];
  const chosen = Array.from({ length: opts.streams }, (_, i) => sessions[Math.floor(((i + 0.5) * sessions.length) / opts.streams)]!);
  const failures: string[] = [];
  const replay = async (id: number) => {
    const started = performance.now();
    try {
      const stream = await openStream(`${server.url}/rest/1/dialsession/${id}/events`, {
        authorization: `Bearer ${token}`,
        'last-event-id': '0',
      });
      try {
        await stream.waitFor((e) => Number(e.id) === lastIds.get(id), 300_000);
      } finally {
        stream.close();
      }
      return [performance.now() - started];
    } catch (error) {
      failures.push(String((error as Error).cause ?? error));
      return [];
    }
  };
  const result = await besideHealth(server, async () => {
    const took: number[] = [];
    for (let round = 0; round < opts.rounds; round++) took.push(...(await Promise.all(chosen.map(replay))).flat());
    return took;
  });
  report(`${opts.streams} streams from Last-Event-ID 0 (${opts.rounds} rounds)`, result, opts.rounds, 'round');
  log(`  streams that failed: ${failures.length}${failures.length ? ` (${[...new Set(failures)].join('; ')})` : ''}`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-usage-bench-'));
  const dbFile = path.join(dir, 'bench.db');
  log(
    `Usage and replay bench: ${opts.calls.toLocaleString('en-US')} calls over ${opts.days} days and ${opts.members} members, ` +
      `${opts.events.toLocaleString('en-US')} events; store ${dbFile}`,
  );
  try {
    const store = await openStore(`sqlite:${dbFile}`);
    const secretKey = loadSecretKey(undefined, dbFile);
    const team = await createTeam(store, secretKey, opts.members);
    let started = performance.now();
    const history = await loadCallHistory(store, team, opts.calls, opts.days, log);
    log(
      `Calls: ${history.calls.toLocaleString('en-US')} in ${history.sessionIds.length.toLocaleString('en-US')} sessions, ${history.firstDay} to ${history.lastDay}, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    started = performance.now();
    const lastIds = await loadEvents(store, history.sessionIds, opts.events);
    log(`Events: ${((performance.now() - started) / 1000).toFixed(1)} s; database ${(fs.statSync(dbFile).size / 1e6).toFixed(0)} MB`);
    await store.write((tx) => sql`analyze`.execute(tx));
    await store.close();

    const server = await startServer(dbFile);
    try {
      const token = personalToken(secretKey, team.vendor);
      const idle = await besideHealth(server, () => sleep(2_000).then(() => []));
      log('');
      log(`${figures('/healthz alone', idle.health)}   failed ${idle.healthFailures}`);
      await usageScenarios(server, token, history);
      await replayScenario(server, token, lastIds);
    } finally {
      await server.stop();
    }
  } finally {
    if (args.keep) log(`Kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
