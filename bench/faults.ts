/*
 * npm run bench:faults [-- --clients 4 --steady 5]
 * Faults on PostgreSQL under write load (docs/store.md, "A lost database"): a throw-away cluster of its own (port
 * 55440, under /tmp/faults-bench-*), two server processes on it (WORKERS=2 each, SECRET_KEY set, ports 4620 and 4621),
 * and `--clients` clients per server creating contacts, each request on a fresh connection. Then, a steady spell apart:
 * `pg_ctl restart -m fast`, `pg_ctl restart -m immediate` (a crash: recovery from the WAL), and `kill -9` of the first
 * server's process group, started again on the same port. Every answer is counted: 2xx, 503 (with Retry-After or
 * not), 500s and anything else, hangs (no answer within ANSWER_BOUND_MS), refused or cut connections (a server that
 * is not there). At the end every contact acknowledged with 201 is looked for in the database. Targets: 500s 0, hangs
 * 0, acknowledged writes missing 0. The cluster is removed at the end, also on failure.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from '../server/test/process.js';
import { type Cluster, clusterRoot, initCluster, removeOnExit } from './pg-cluster.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '4' },
    steady: { type: 'string', default: '5' },
  },
});
const CLIENTS = Number(args.clients);
const STEADY_MS = Number(args.steady) * 1000;
const PG_PORT = 55440;
const APP_PORTS = [4620, 4621];
/** An answer later than this is a hang. Above the store's connect time-out (5 s) twice over (a write retried once). */
const ANSWER_BOUND_MS = 15_000;
/** A server that does not serve again this long after a fault ends the run (a failure). */
const RECOVERY_LIMIT_MS = 120_000;
const SETTINGS = { WORKERS: '2', LOG_LEVEL: 'error', TRANSCRIBER: 'none' };
/** What the servers wrote (errors only), kept after the run. */
const SERVER_LOG = '/tmp/faults-bench-servers.log';
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

type Kind = '2xx' | '503' | '500' | 'other' | 'hang' | 'refused' | 'cut';
type Answer = {
  server: number;
  name: string;
  startedMs: number;
  endedMs: number;
  kind: Kind;
  status: number;
  retryAfter: boolean;
  code?: number;
  reason?: string;
  id?: number;
};

/** One contact creation on a connection of its own. */
function create(port: number, token: string, name: string): Promise<Omit<Answer, 'server' | 'name' | 'startedMs' | 'endedMs'>> {
  const body = JSON.stringify({ first_name: name, last_name: 'Faults', allow_duplicates: 1 });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/rest/1/contacts',
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
        },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d) => (text += d))
          .on('end', () => {
            clearTimeout(timer);
            const status = res.statusCode ?? 0;
            let parsed: any;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            const kind: Kind = status >= 200 && status < 300 ? '2xx' : status === 503 ? '503' : status >= 500 ? '500' : 'other';
            resolve({
              kind,
              status,
              retryAfter: res.headers['retry-after'] !== undefined,
              code: parsed?.debug_codes?.[0]?.code,
              reason: parsed?.debug_codes?.[0]?.reason,
              id: Number(parsed?.contacts?.contacts?.contact_user_id) || undefined,
            });
          })
          .on('error', () => resolve({ kind: 'cut', status: 0, retryAfter: false }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ kind: 'hang', status: 0, retryAfter: false });
    }, ANSWER_BOUND_MS);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ kind: error.code === 'ECONNREFUSED' ? 'refused' : 'cut', status: 0, retryAfter: false });
    });
    req.end(body);
  });
}

type Fault = { name: string; startedMs: number; doneMs: number; endMs: number };

async function main() {
  const began = Date.now();
  const root = clusterRoot('faults-bench');
  const clusters: Cluster[] = [];
  const servers: (ServerProcess | undefined)[] = [undefined, undefined];
  const removeAll = removeOnExit(() => clusters);
  const run = crypto.randomBytes(3).toString('hex');
  try {
    log(
      `Ringbook faults bench: cluster ${root} on port ${PG_PORT}, servers on ${APP_PORTS.join(' and ')} (WORKERS=2 each), ${CLIENTS} clients per server; load ${loadAverage()}`,
    );
    const cluster = await initCluster(root, 'primary', PG_PORT);
    clusters.push(cluster);
    await cluster.query('postgres', 'create database ringbook');
    const folder: StoreFolder = {
      dir: root,
      databaseUrl: cluster.url('ringbook'),
      secretKey: crypto.randomBytes(32).toString('base64'),
      remove: async () => {},
    };
    const vendor = await vendorIn(folder, 'faults', 'a long password for faults');
    const token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
    const start = (i: number) => startServerProcess(folder, { ...SETTINGS, PORT: String(APP_PORTS[i]) });
    servers[0] = await start(0);
    servers[1] = await start(1);

    const answers: Answer[] = [];
    let killedOutput = '';
    let loading = true;
    let sequence = 0;
    const client = async (server: number) => {
      while (loading) {
        const name = `F${run}n${++sequence}`;
        const startedMs = Date.now();
        const answer = await create(APP_PORTS[server]!, token, name);
        answers.push({ server, name, startedMs, endedMs: Date.now(), ...answer });
        // A server that is not there refuses at once: ask again a little later, not in a tight loop.
        if (answer.kind === 'refused' || answer.kind === 'cut') await sleep(50);
      }
    };
    const clients = APP_PORTS.flatMap((_, server) => Array.from({ length: CLIENTS }, () => client(server)));

    /** Waits until each server has answered 2xx to a request started after `sinceMs`. */
    const servingSince = async (sinceMs: number) => {
      while (![0, 1].every((s) => answers.some((a) => a.server === s && a.kind === '2xx' && a.startedMs >= sinceMs))) {
        if (Date.now() - sinceMs > RECOVERY_LIMIT_MS) throw new Error(`A server did not serve again within ${RECOVERY_LIMIT_MS / 1000} s.`);
        await sleep(20);
      }
    };
    const faults: Fault[] = [];
    const fault = async (name: string, action: () => Promise<void>) => {
      const startedMs = Date.now();
      log(`  ${name} ...`);
      await action();
      const doneMs = Date.now();
      await servingSince(doneMs);
      await sleep(STEADY_MS);
      faults.push({ name, startedMs, doneMs, endMs: Date.now() });
    };

    await sleep(STEADY_MS);
    const warmEndMs = Date.now();
    await fault('pg_ctl restart -m fast', () => cluster.restart('fast'));
    await fault('pg_ctl restart -m immediate', () => cluster.restart('immediate'));
    await fault('kill -9 of server 1, then started again', async () => {
      killedOutput = servers[0]!.output();
      await servers[0]!.stop('SIGKILL');
      servers[0] = undefined;
      servers[0] = await start(0);
    });
    loading = false;
    await Promise.all(clients);

    // Every acknowledged contact, looked for in the database (after the servers stop: nothing is in flight).
    const output = [killedOutput, ...servers.map((s) => s?.output() ?? '')].join('\n');
    fs.writeFileSync(SERVER_LOG, output);
    for (const s of servers) await s?.stop('SIGTERM');
    servers.fill(undefined);
    const stored = new Map(
      (
        await cluster.query<{ id: number; first_name: string }>(
          'ringbook',
          `select id, first_name from contacts where first_name like $1`,
          [`F${run}n%`],
        )
      ).map((r) => [r.first_name, Number(r.id)]),
    );
    print(answers, faults, warmEndMs, stored, output, (Date.now() - began) / 1000);
  } finally {
    for (const s of servers) await s?.stop('SIGKILL');
    removeAll();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function print(answers: Answer[], faults: Fault[], warmEndMs: number, stored: Map<string, number>, output: string, seconds: number) {
  const count = (list: Answer[], kind: Kind) => list.filter((a) => a.kind === kind).length;
  const summary = (list: Answer[]) => {
    const unavailable = list.filter((a) => a.kind === '503');
    const codes = [...new Set(unavailable.map((a) => a.code))]
      .map((c) => `${c}: ${unavailable.filter((a) => a.code === c).length}`)
      .join(', ');
    return (
      `${list.length} requests, 2xx ${count(list, '2xx')}, 503 ${unavailable.length} (with Retry-After ${unavailable.filter((a) => a.retryAfter).length}${codes ? `; ${codes}` : ''}), ` +
      `500 ${count(list, '500')}, other ${count(list, 'other')}, hangs ${count(list, 'hang')}, refused ${count(list, 'refused')}, cut ${count(list, 'cut')}`
    );
  };
  log('');
  // Each answer counts in the span it came back in: a request in flight when a fault begins counts for the fault.
  log(
    `steady (first ${Math.round((warmEndMs - answers[0]!.startedMs) / 1000)} s): ${summary(answers.filter((a) => a.endedMs < warmEndMs))}`,
  );
  for (const f of faults) {
    log(`${f.name} (took ${((f.doneMs - f.startedMs) / 1000).toFixed(1)} s):`);
    for (const server of [0, 1]) {
      const during = answers.filter((a) => a.server === server && a.endedMs >= f.startedMs && a.endedMs < f.endMs);
      const failed = during.filter((a) => a.kind !== '2xx');
      const after = (ms: number) => `+${((ms - f.startedMs) / 1000).toFixed(1)} s`;
      const lastFailed = failed.at(-1);
      const back = lastFailed && during.find((a) => a.kind === '2xx' && a.startedMs >= lastFailed.startedMs);
      const recovery = !lastFailed
        ? 'no failed request'
        : `failures answered from ${after(failed[0]!.endedMs)} to ${after(lastFailed.endedMs)}; serving again ${back ? after(back.endedMs) : 'NOT within the window'}`;
      log(`  server ${server + 1}: ${summary(during)}; ${recovery}`);
    }
  }
  const acknowledged = answers.filter((a) => a.kind === '2xx');
  const missing = acknowledged.filter((a) => stored.get(a.name) !== a.id);
  const refusedStored = answers.filter((a) => a.kind === '503' && a.code === 50301 && stored.has(a.name));
  const uncertain = answers.filter((a) => a.kind === '503' && a.code === 50302);
  const cut = answers.filter((a) => a.kind === 'cut' || a.kind === 'hang');
  log('');
  log(`all: ${summary(answers)}`);
  log(`acknowledged (201) ${acknowledged.length}; missing afterwards ${missing.length}  target 0: ${missing.length === 0 ? 'yes' : 'NO'}`);
  log(`answered 50301 "nothing was applied" yet stored: ${refusedStored.length}  target 0: ${refusedStored.length === 0 ? 'yes' : 'NO'}`);
  log(
    `answered 50302 "may or may not have been applied": ${uncertain.length}, of which stored ${uncertain.filter((a) => stored.has(a.name)).length}`,
  );
  log(
    `connections cut or unanswered (a server killed under them): ${cut.length}, of which stored ${cut.filter((a) => stored.has(a.name)).length}`,
  );
  log(
    `500s ${count(answers, '500')}  target 0: ${count(answers, '500') === 0 ? 'yes' : 'NO'}; hangs ${count(answers, 'hang')}  target 0: ${count(answers, 'hang') === 0 ? 'yes' : 'NO'}`,
  );
  log(`worker processes that exited on their own: ${(output.match(/worker exited; starting another/g) ?? []).length}`);
  // What the servers logged for their 5xx answers, by the store's own message.
  const causes = new Map<string, number>();
  for (const line of output.split('\n')) {
    let entry: { msg?: string; err?: { message?: string } } | undefined;
    try {
      entry = line.startsWith('{') ? JSON.parse(line) : undefined;
    } catch {
      entry = undefined;
    }
    if (entry?.msg !== 'request failed') continue;
    const cause = (entry.err?.message ?? '?').replace(/\d+/g, 'N').slice(0, 100);
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
  }
  for (const [cause, n] of [...causes].sort((a, b) => b[1] - a[1])) log(`  ${n} x ${cause}`);
  const reasons = new Map<string, number[]>();
  for (const a of answers.filter((x) => x.kind === '503'))
    reasons.set(a.reason ?? '?', [...(reasons.get(a.reason ?? '?') ?? []), a.endedMs - a.startedMs]);
  for (const [reason, ms] of reasons) log(`  503 "${reason}": ${ms.length}, answered in ${Math.min(...ms)}-${Math.max(...ms)} ms`);
  log(`run time ${seconds.toFixed(0)} s; load ${loadAverage()}`);
  if (missing.length || refusedStored.length || count(answers, '500') || count(answers, 'hang')) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
