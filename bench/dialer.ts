/*
 * The dialer's benchmarks, run at the end of `npm run bench` (alone with `--only dialer`), on the store the main
 * bench loaded:
 * - session creation over HTTP, one request at a time, with 500 and 1,000 contacts new to the store, and with 500
 *   that all exist already (a CRM sending the same body again after the 60 s repeat window);
 * - concurrent power sessions on a server whose simulated carrier runs 100x faster, each driven through the API by a
 *   bot (dial-bot.ts), with all three callbacks sent to a receiver in its own process, counted against the outbox.
 */
import { type CallbackReceiver, startCallbackReceiver } from './callback-receiver.js';
import { driveSession } from './dial-bot.js';
import type { Db } from '../server/db/database.js';
import {
  callbacksTo,
  dialContact,
  digitAt,
  loadAverage,
  type OutboxEntry,
  outboxRows,
  pendingCount,
  storeReader,
  tally,
  type Tally,
  zoneWhereItIs,
} from './dial-load.js';
import { percentile, type RunningServer, startServer } from './http.js';
import type { BenchStore } from './store.js';

export type DialerOptions = { creations: number; sessions: number; sessionContacts: number };
type Log = (line: string) => void;

/* Area codes no other scenario uses: every number is new to the store. */
const CREATE_AREA = '617';
const SESSION_AREA = '718';
const TIME_SCALE = '0.01';
const CREATING_AT_ONCE = 4;
const RUN_LIMIT_MS = 300_000;

const ms = (n: number) => n.toFixed(1);

/**
 * `token`: the rep who creates the timed sessions; `reps`: a token per concurrent session, each of a rep of its own
 * (a rep dials one session at a time: sessions of one rep would run one after the other).
 */
export async function runDialerBench(
  store: Pick<BenchStore, 'url' | 'env'>,
  token: string,
  reps: string[],
  opts: DialerOptions,
  log: Log,
): Promise<void> {
  if (reps.length < opts.sessions) throw new Error(`${opts.sessions} concurrent sessions need as many reps, not ${reps.length}.`);
  log('');
  log(
    `Dialer, session creation: POST /rest/1/dialsession, one request at a time, ${opts.creations} of each after 3 unmeasured; load ${loadAverage()}`,
  );
  printCreation(await benchCreation(store, token, opts.creations, log), log);
  log('');
  log(
    `Dialer, ${opts.sessions} concurrent power sessions of ${opts.sessionContacts} contacts (CARRIER_TIME_SCALE=${TIME_SCALE}), ` +
      `3 callbacks each to a receiver in its own process; load ${loadAverage()}`,
  );
  printSessions(await benchSessions(store, reps, opts, log), log);
}

type Timed = { name: string; target?: [string, (t: Timed) => boolean]; latencies: number[]; cpuPerRequest: number; failures: string[] };

const headers = (token: string, key?: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json',
  ...(key ? { 'idempotency-key': key } : {}),
});

async function timeCreations(
  server: RunningServer,
  token: string,
  name: string,
  count: number,
  next: (i: number) => { body: object; key?: string },
): Promise<Timed> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const cpuBefore = server.cpuMs();
  for (let i = 0; i < count; i++) {
    const { body, key } = next(i);
    const json = JSON.stringify(body);
    const started = performance.now();
    const res = await fetch(`${server.url}/rest/1/dialsession`, { method: 'POST', headers: headers(token, key), body: json });
    const text = await res.text();
    latencies.push(performance.now() - started);
    if (res.status !== 201 || (JSON.parse(text) as { dialsessions: { errors: unknown } }).dialsessions.errors !== null)
      failures.push(`${res.status} ${text.slice(0, 300)}`);
  }
  latencies.sort((a, b) => a - b);
  return { name, latencies, failures, cpuPerRequest: (server.cpuMs() - cpuBefore) / count };
}

async function benchCreation(store: Pick<BenchStore, 'url' | 'env'>, token: string, count: number, log: Log): Promise<Timed[]> {
  const server = await startServer(store);
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const zone = zoneWhereItIs(14);
  let n = 0;
  const fresh = (size: number) => ({ contacts: Array.from({ length: size }, () => dialContact(run, n, n++ % 10, CREATE_AREA, zone)) });
  try {
    await timeCreations(server, token, 'warm-up', 3, () => ({ body: fresh(500) }));
    const sent: object[] = [];
    log('  running 500 new contacts ...');
    const new500 = await timeCreations(server, token, '500 new contacts', count, () => {
      sent.push(fresh(500));
      return { body: sent.at(-1)! };
    });
    log('  running 1,000 new contacts ...');
    const new1000 = await timeCreations(server, token, '1,000 new contacts', count, () => ({ body: fresh(1000) }));
    // The same bodies again, as after the repeat window: a fresh Idempotency-Key makes each a new session.
    log('  running 500 existing contacts ...');
    const again500 = await timeCreations(server, token, '500 existing (a retry)', count, (i) => ({
      body: sent[i]!,
      key: `retry-${run}-${i}`,
    }));
    return [
      { ...new500, target: ['p50 < 150 ms', (t) => percentile(t.latencies, 50) < 150] },
      { ...new1000, target: ['p50 < 300 ms', (t) => percentile(t.latencies, 50) < 300] },
      again500,
    ];
  } finally {
    await server.stop();
  }
}

function printCreation(results: Timed[], log: Log) {
  log('  contacts per request       p50 ms   p99 ms   max ms  cpu ms/req  failures  target         met');
  for (const r of results) {
    const [target, met] = r.target ?? ['', () => true];
    const ok = met(r) && !r.failures.length;
    log(
      `  ${r.name.padEnd(24)} ${ms(percentile(r.latencies, 50)).padStart(8)} ${ms(percentile(r.latencies, 99)).padStart(8)} ` +
        `${ms(r.latencies.at(-1)!).padStart(8)} ${r.cpuPerRequest.toFixed(0).padStart(11)} ${String(r.failures.length).padStart(9)}  ` +
        `${target.padEnd(13)}  ${ok ? (target ? 'yes' : '') : 'NO'}`,
    );
    for (const failure of r.failures.slice(0, 3)) log(`    ${r.name} answered: ${failure}`);
  }
  log(
    `  cpu ms/req: CPU time of the server's processes per request; p99 of ${results[0]?.latencies.length} requests is their slowest (p99 = max below 100)`,
  );
}

type SessionsResult = {
  tally: Tally;
  startedAt: number;
  endedAt: number;
  rows: OutboxEntry[];
  outcomes: Record<string, number>;
  dispositions: number;
  reconnects: number;
  cpuMs: number;
  loadAfter: string;
};

/** One session per rep (the rep's token beside the session's id), created a few at a time. */
async function createSessions(server: RunningServer, reps: string[], receiver: CallbackReceiver, opts: DialerOptions) {
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const zone = zoneWhereItIs(14);
  const made: { token: string; id: string }[] = [];
  let n = 0;
  const one = async (token: string) => {
    const contacts = Array.from({ length: opts.sessionContacts }, (_, position) =>
      dialContact(run, n++, digitAt(position), SESSION_AREA, zone),
    );
    const res = await fetch(`${server.url}/rest/1/dialsession`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({ contacts, callbacks: callbacksTo(receiver.url) }),
    });
    const body = (await res.json()) as { dialsessions: { dialsession_id: string; errors: unknown } };
    if (res.status !== 201 || body.dialsessions.errors !== null)
      throw new Error(`Creating a session answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    made.push({ token, id: body.dialsessions.dialsession_id });
  };
  for (let from = 0; from < opts.sessions; from += CREATING_AT_ONCE) {
    await Promise.all(reps.slice(from, Math.min(from + CREATING_AT_ONCE, opts.sessions)).map(one));
  }
  return made;
}

async function benchSessions(
  store: Pick<BenchStore, 'url' | 'env'>,
  reps: string[],
  opts: DialerOptions,
  log: Log,
): Promise<SessionsResult> {
  const receiver = await startCallbackReceiver();
  const reader = storeReader(store.url);
  const server = await startServer(store, { CARRIER_TIME_SCALE: TIME_SCALE, CALLBACK_ALLOWED_HOSTS: '127.0.0.1' });
  try {
    log('  creating sessions ...');
    const sessions = await createSessions(server, reps, receiver, opts);
    log('  running sessions ...');
    const cpuBefore = server.cpuMs();
    const startedAt = Date.now();
    const bots = await Promise.all(
      sessions.map(({ token, id }) => driveSession({ url: () => server.url, token }, id, startedAt + RUN_LIMIT_MS)),
    );
    const sessionIds = sessions.map(({ id }) => Number(id));
    while ((await pendingCount(reader.db, sessionIds)) > 0 && Date.now() < startedAt + RUN_LIMIT_MS)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const endedAt = Date.now();
    const cpuMs = server.cpuMs() - cpuBefore;
    const rows = await outboxRows(reader.db, sessionIds);
    return {
      tally: tally(rows, await receiver.arrivals()),
      startedAt,
      endedAt,
      rows,
      outcomes: await callOutcomes(reader.db, sessionIds),
      dispositions: bots.reduce((sum, b) => sum + b.dispositions, 0),
      reconnects: bots.reduce((sum, b) => sum + b.reconnects, 0),
      cpuMs,
      loadAfter: loadAverage(),
    };
  } finally {
    await server.stop();
    await receiver.close();
    await reader.close();
  }
}

async function callOutcomes(db: Db, sessionIds: number[]): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('calls')
    .select((eb) => ['disposition', eb.fn.countAll<number>().as('n')])
    .where('session_id', '>=', Math.min(...sessionIds))
    .where('session_id', '<=', Math.max(...sessionIds))
    .groupBy('disposition')
    .orderBy('n', 'desc')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.disposition || '(none)', Number(r.n)]));
}

function printSessions(r: SessionsResult, log: Log) {
  const t = r.tally;
  const seconds = (t.lastArrival - r.startedAt) / 1000;
  const perSecond = t.delivered / seconds;
  const made = r.rows.length ? (Math.max(...r.rows.map((x) => x.created_at_ms)) - r.startedAt) / 1000 : NaN;
  log(
    `  calls by disposition: ${Object.entries(r.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; the bots dispositioned ${r.dispositions} and reconnected ${r.reconnects} times`,
  );
  log(
    `  acknowledged ${t.acknowledged} (outbox rows), delivered ${t.delivered}, duplicated ${t.duplicated}, lost ${t.lost}, ` +
      `unknown webhook-ids ${t.strangers}  target lost = 0: ${t.lost === 0 ? 'yes' : 'NO'}`,
  );
  log(
    `  callbacks delivered per second: ${perSecond.toFixed(0)} (${t.delivered} in ${seconds.toFixed(2)} s from the first start to the last arrival)  ` +
      `target >= 1000/s: ${perSecond >= 1000 ? 'yes' : 'NO'}`,
  );
  log(
    `  callbacks written per second: ${(t.acknowledged / made).toFixed(0)} (the last outbox row ${made.toFixed(2)} s after the first start)`,
  );
  log(
    `  event to delivery (receiver's arrival - created_at_ms): p50 ${ms(percentile(t.latencies, 50))} ms, p99 ${ms(percentile(t.latencies, 99))} ms, ` +
      `max ${ms(t.latencies.at(-1) ?? NaN)} ms`,
  );
  log(
    `  server CPU ${(r.cpuMs / 1000).toFixed(1)} s over ${((r.endedAt - r.startedAt) / 1000).toFixed(1)} s (${(r.cpuMs / t.acknowledged).toFixed(2)} ms a callback, ` +
      `all dialing work included); load after ${r.loadAfter}`,
  );
}
