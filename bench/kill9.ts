/*
 * npm run bench:kill9 [-- --kills 50 --sessions 8 --contacts 20]
 * Nothing acknowledged is lost, at scale: the server (2 workers, carrier 100x faster) runs on a fresh store while bots
 * create and drive power sessions whose callbacks go to a healthy receiver, and is killed with kill -9 (its whole
 * process group) at random moments while callbacks are pending, then started again on the same store. Each start runs
 * its clock on from a minute past where the last one's had got to, so the leases the dead server held (30 s) are over
 * at once. After the last kill the last server delivers everything; then the outbox is set against what arrived.
 */
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { sqlitePath } from '../server/db/database.js';
import { type ServerProcess, startServerProcess, storeFolder, vendorIn } from '../server/test/process.js';
import { startCallbackReceiver } from './callback-receiver.js';
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
  type StoreReader,
  tally,
  zoneWhereItIs,
} from './dial-load.js';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '50' },
    sessions: { type: 'string', default: '8' },
    contacts: { type: 'string', default: '20' },
  },
});
const opts = { kills: Number(args.kills), sessions: Number(args.sessions), contacts: Number(args.contacts) };
const SETTINGS = { CARRIER_TIME_SCALE: '0.01', CALLBACK_ALLOWED_HOSTS: '127.0.0.1', WORKERS: '2', LOG_LEVEL: 'error' };
/** Past the delivery lease (30 s): what the killed server had leased is due as soon as the next one starts. */
const CLOCK_JUMP_MS = 60_000;
/** A kill comes this long (at random) after the server is up, later if no callback is pending by then. */
const UPTIME_MS = { min: 200, max: 2_000, waitForPending: 3_000 };
const RUN_LIMIT_MS = 15 * 60_000;
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The running server, and the clock each start is given. */
class Servers {
  current: ServerProcess | undefined;
  private clockMs = Date.now();
  private startedAt = 0;

  constructor(private readonly folder: ReturnType<typeof storeFolder>) {}

  url = () => this.current?.url ?? 'http://127.0.0.1:1';

  async start() {
    this.startedAt = Date.now();
    this.current = await startServerProcess(this.folder, { ...SETTINGS, CLOCK_START: new Date(this.clockMs).toISOString() });
  }

  /** kill -9 to the server's process group; the next start's clock runs from a minute past where this one's got to. */
  async kill() {
    const server = this.current!;
    this.current = undefined;
    // The clock started when the process read CLOCK_START, a little after startedAt: this errs late, as it should.
    this.clockMs += Date.now() - this.startedAt + CLOCK_JUMP_MS;
    await server.stop('SIGKILL');
  }
}

type Counts = { created: number; ended: number; failed: string[] };

/** Sessions one after another, each created (retried with its Idempotency-Key across kills) and driven to its end. */
async function sessionSlot(
  slot: number,
  servers: Servers,
  token: string,
  receiverUrl: string,
  keepGoing: () => boolean,
  counts: Counts,
  deadline: number,
) {
  const zone = zoneWhereItIs(13);
  for (let round = 0; keepGoing(); round++) {
    const first = (slot * 100_000 + round) * opts.contacts;
    const contacts = Array.from({ length: opts.contacts }, (_, i) => dialContact(`k9-${process.pid}`, first + i, digitAt(i), '312', zone));
    const body = JSON.stringify({ contacts, callbacks: callbacksTo(receiverUrl) });
    const key = `kill9-${process.pid}-${slot}-${round}`;
    let id: string | undefined;
    while (!id && Date.now() < deadline) {
      try {
        const res = await fetch(`${servers.url()}/rest/1/dialsession`, {
          method: 'POST',
          body,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        });
        const answer = (await res.json()) as { dialsessions?: { dialsession_id: string } };
        if (res.status === 201) id = answer.dialsessions!.dialsession_id;
        else throw new Error(`creating a session answered ${res.status}: ${JSON.stringify(answer).slice(0, 200)}`);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error; // a TypeError is fetch's "the server went away"
        await sleep(100);
      }
    }
    if (!id) throw new Error('No server took the session in time.');
    counts.created++;
    try {
      await driveSession({ url: servers.url, token }, id, deadline);
      counts.ended++;
    } catch (error) {
      counts.failed.push(`session ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Waits a random uptime, then on until some callback is pending (or a while longer); answers how many were. */
async function momentToKill(db: Db): Promise<number> {
  await sleep(UPTIME_MS.min + Math.random() * (UPTIME_MS.max - UPTIME_MS.min));
  const giveUp = Date.now() + UPTIME_MS.waitForPending;
  let pending = await pendingCount(db);
  while (pending === 0 && Date.now() < giveUp) {
    await sleep(20);
    pending = await pendingCount(db);
  }
  return pending;
}

async function main() {
  const began = Date.now();
  const folder = storeFolder();
  const dbFile = sqlitePath(folder.databaseUrl);
  log(
    `Ringbook kill -9 bench: ${opts.kills} kills, ${opts.sessions} sessions at a time of ${opts.contacts} contacts; store ${dbFile}; load ${loadAverage()}`,
  );
  const receiver = await startCallbackReceiver();
  const servers = new Servers(folder);
  let reader: StoreReader | undefined;
  try {
    const vendor = await vendorIn(folder, 'kill9', 'a long password for kill9');
    reader = storeReader(folder.databaseUrl);
    const token = personalToken(Buffer.from(folder.secretKey, 'utf8'), vendor);
    await servers.start();
    let killing = true;
    const counts: Counts = { created: 0, ended: 0, failed: [] };
    const deadline = began + RUN_LIMIT_MS;
    const slots = Array.from({ length: opts.sessions }, (_, slot) =>
      sessionSlot(slot, servers, token, receiver.url, () => killing, counts, deadline),
    );
    const pendingAtKill: number[] = [];
    for (let kill = 1; kill <= opts.kills; kill++) {
      pendingAtKill.push(await momentToKill(reader.db));
      await servers.kill();
      await servers.start();
      if (kill % 10 === 0)
        log(`  ${kill} kills, ${counts.created} sessions created, ${(await outboxRows(reader.db)).length} callbacks acknowledged so far`);
    }
    killing = false;
    await Promise.all(slots);
    log('  last server delivering what is left ...');
    while ((await pendingCount(reader.db)) > 0 && Date.now() < deadline) await sleep(100);
    const rows = await outboxRows(reader.db);
    await sleep(500); // anything still on the wire arrives
    const t = tally(rows, await receiver.arrivals());
    print(t, rows, pendingAtKill, counts, (Date.now() - began) / 1000);
    if (t.lost) process.exitCode = 1;
  } finally {
    if (servers.current) await servers.current.stop('SIGTERM');
    await receiver.close();
    await reader?.close();
    await folder.remove();
  }
}

function print(t: ReturnType<typeof tally>, rows: OutboxEntry[], pendingAtKill: number[], counts: Counts, seconds: number) {
  const sorted = [...pendingAtKill].sort((a, b) => a - b);
  const states = rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.state]: (acc[r.state] ?? 0) + 1 }), {});
  log('');
  log(
    `kills: ${pendingAtKill.length}, ${pendingAtKill.filter((n) => n > 0).length} of them with callbacks pending ` +
      `(pending at a kill: median ${sorted[Math.floor(sorted.length / 2)]}, ${sorted[0]}-${sorted.at(-1)})`,
  );
  log(
    `sessions: ${counts.created} created, ${counts.ended} driven to their end${counts.failed.length ? `, ${counts.failed.length} not: ${counts.failed.slice(0, 3).join('; ')}` : ''}`,
  );
  log(
    `acknowledged ${t.acknowledged} (outbox rows: ${Object.entries(states)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  log(
    `delivered ${t.delivered} (distinct webhook-ids received), duplicated ${t.duplicated} (arrivals beyond the first), ` +
      `lost ${t.lost} (acknowledged, never received)  target lost = 0: ${t.lost === 0 ? 'yes' : 'NO'}`,
  );
  if (t.strangers) log(`unknown webhook-ids received: ${t.strangers}`);
  if (t.lost) log(`lost outbox ids (first 20): ${t.lostIds.slice(0, 20).join(', ')}`);
  log(`run time ${seconds.toFixed(0)} s; load ${loadAverage()}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
