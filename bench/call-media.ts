/*
 * npm run bench:calls [-- --sessions 20 --contacts 5 --talk 3 --scale 0.1 --database postgres://…]
 * (also the last part of `npm run bench`; `--only calls` there runs it alone)
 *
 * What recording and transcription cost the dialer, and how soon a call is summarized, on a fresh store:
 *   1. `--sessions` reps each run a power session of `--contacts` contacts (mostly people who answer, one answering
 *      machine), driven through the API by bots (dial-bot.ts) that talk `--talk` real seconds to each person before
 *      dispositioning; the simulated carrier runs at `--scale` (0.1: 3 s of talk is a 30 s recorded call);
 *   2. once with TRANSCRIBER=none (recordings only), once with TRANSCRIBER=pocketsphinx (the default);
 *   3. prints the dialer actions' latency (every POST the bots send: start, disposition) in both runs and their p99
 *      ratio (target: no more than 20 % worse with transcription), and, in the second run, call end -> summarized:
 *      a poller lists the organisation's connected calls every 250 ms and notes when each is first seen ended and
 *      first seen summarized (so figures are within a poll of the truth).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { openStore } from '../server/db/database.js';
import { createPocketSphinxEngine } from '../server/transcription/pocketsphinx.js';
import { driveSession } from './dial-bot.js';
import { dialContact, loadAverage, zoneWhereItIs } from './dial-load.js';
import { percentile, type RunningServer, startServer } from './http.js';
import { createTeam } from './load.js';
import { postgresBenchStore, sqliteBenchStore } from './store.js';

/** `database`: a PostgreSQL server to make each run's database on (bench/store.ts); a SQLite file of its own without. */
export type CallMediaOptions = { sessions: number; contacts: number; talkSeconds: number; scale: number; database?: string };
type Log = (line: string) => void;

const POLL_MS = 250;
const RUN_LIMIT_MS = 600_000;
/** Last digits of the numbers dialed (the simulated carrier's outcomes): people answer (0-4), one machine (5). */
const DIGITS = [0, 1, 5, 2, 3, 4, 0, 1, 2, 3];
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');
const s = (n: number) => (Number.isFinite(n) ? (n / 1000).toFixed(1) : '-');

type Run = {
  actions: Map<string, number[]>;
  summarized: number[];
  failed: number;
  connected: number;
  unfinished: number;
  wallMs: number;
  cpuMs: number;
};

export async function runCallMediaBench(opts: CallMediaOptions, log: Log): Promise<void> {
  log('');
  log(
    `Calls, recordings and transcripts: ${opts.sessions} power sessions of ${opts.contacts} contacts at once, ` +
      `${opts.talkSeconds} s of talk to each person at CARRIER_TIME_SCALE=${opts.scale} (${(opts.talkSeconds / opts.scale).toFixed(0)} s recorded)`,
  );
  const quiet = await measure(opts, 'none', log);
  print('recordings only (TRANSCRIBER=none)', quiet, log);
  const engine = await createPocketSphinxEngine().availability();
  if (!engine.available) {
    log(`  transcription: not measured (${engine.reason})`);
    return;
  }
  const busy = await measure(opts, 'pocketsphinx', log);
  print('with transcription (TRANSCRIBER=pocketsphinx)', busy, log);
  const all = (r: Run) => [...r.actions.values()].flat().sort((a, b) => a - b);
  const ratio = percentile(all(busy), 99) / percentile(all(quiet), 99);
  log(`  dialer actions p99 with transcription / without: ${ratio.toFixed(2)}  target <= 1.20: ${ratio <= 1.2 ? 'yes' : 'NO'}`);
  const summarized = busy.summarized.sort((a, b) => a - b);
  log(
    `  call end -> summarized: ${summarized.length} of ${busy.connected} connected calls, p50 ${s(percentile(summarized, 50))} s, ` +
      `p99 ${s(percentile(summarized, 99))} s, max ${s(summarized.at(-1) ?? NaN)} s; failed ${busy.failed}, not summarized in time ${busy.unfinished}`,
  );
}

function print(title: string, r: Run, log: Log) {
  log(`  ${title}: ${r.connected} connected calls in ${s(r.wallMs)} s, server CPU ${s(r.cpuMs)} s; load ${loadAverage()}`);
  for (const [action, took] of [...r.actions].sort()) {
    const sorted = took.sort((a, b) => a - b);
    log(
      `    POST ${action.padEnd(12)} n ${String(sorted.length).padStart(4)}  p50 ${ms(percentile(sorted, 50))} ms  p99 ${ms(percentile(sorted, 99))} ms`,
    );
  }
}

async function measure(opts: CallMediaOptions, transcriber: 'none' | 'pocketsphinx', log: Log): Promise<Run> {
  // The recordings' files go in a folder of the run's own, beside the store (the SQLite file, or a database).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-bench-calls-'));
  const bench = opts.database ? await postgresBenchStore(opts.database) : sqliteBenchStore('ringbook-bench-calls-store-');
  let server: RunningServer | undefined;
  try {
    const store = await openStore(bench.url);
    const { secretKey } = bench;
    const team = await createTeam(store, secretKey, opts.sessions);
    await store.close();
    server = await startServer(bench, { CARRIER_TIME_SCALE: String(opts.scale), TRANSCRIBER: transcriber, DATA_DIR: dir });
    const url = server.url;
    const vendor = personalToken(secretKey, team.vendor);
    const zone = zoneWhereItIs(14);
    log(`  ${transcriber === 'none' ? 'without' : 'with'} transcription: creating sessions ... (load ${loadAverage()})`);
    const ids = await Promise.all(
      team.members.map(async (member, m) => {
        const token = personalToken(secretKey, member);
        const contacts = Array.from({ length: opts.contacts }, (_, i) =>
          dialContact(`calls${m}`, m * 100 + i, DIGITS[i % DIGITS.length]!, '415', zone),
        );
        const res = await fetch(`${url}/rest/1/dialsession`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ contacts }),
        });
        if (res.status !== 201) throw new Error(`POST /rest/1/dialsession answered ${res.status}: ${await res.text()}`);
        return { token, id: String(((await res.json()) as { dialsessions: { dialsession_id: string } }).dialsessions.dialsession_id) };
      }),
    );
    const actions = new Map<string, number[]>();
    const onAction = (action: string, took: number) => actions.set(action, [...(actions.get(action) ?? []), took]);
    const cpuBefore = server.cpuMs();
    const started = Date.now();
    const deadline = started + RUN_LIMIT_MS;
    const poller = pollCalls(url, vendor, transcriber === 'pocketsphinx', deadline);
    log('  running sessions ...');
    await Promise.all(
      ids.map(({ token, id }) => driveSession({ url: () => url, token }, id, deadline, { talkMs: opts.talkSeconds * 1000, onAction })),
    );
    const { seen, failures } = await poller.until(transcriber === 'pocketsphinx');
    if (failures) log(`  (${failures} polls of the calls list failed and were tried again)`);
    const cpuMs = server.cpuMs() - cpuBefore;
    const calls = [...seen.values()];
    return {
      actions,
      connected: calls.length,
      cpuMs,
      wallMs: Date.now() - started,
      summarized: calls.flatMap((c) => (c.summarizedAt && c.endedAt ? [c.summarizedAt - c.endedAt] : [])),
      failed: calls.filter((c) => c.failed).length,
      unfinished: calls.filter((c) => !c.summarizedAt && !c.failed).length,
    };
  } finally {
    await server?.stop();
    await bench.remove(false, log);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Seen = { endedAt?: number; summarizedAt?: number; failed?: boolean };
type ListedCall = { call_id: string; end_when: string | null; transcript_status?: string | null };

/**
 * Lists the organisation's connected calls every POLL_MS and notes when each was first seen ended and summarized.
 * until(wait): once the bots are done, keeps polling until every connected call is summarized or failed (when
 * transcription runs), then stops.
 */
function pollCalls(url: string, token: string, transcribing: boolean, deadline: number) {
  const seen = new Map<string, Seen>();
  let stop = false;
  const poll = async () => {
    const res = await fetch(`${url}/rest/1/calls?connected=1&page_size=100`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET /rest/1/calls answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { calls: { calls: ListedCall[] } };
    const at = Date.now();
    for (const call of body.calls.calls) {
      const entry = seen.get(call.call_id) ?? {};
      seen.set(call.call_id, entry);
      if (call.end_when && !entry.endedAt) entry.endedAt = at;
      if (call.transcript_status === 'summarized' && !entry.summarizedAt) entry.summarizedAt = at;
      if (call.transcript_status === 'failed' || call.transcript_status === 'unavailable') entry.failed = true;
    }
  };
  const settled = () => [...seen.values()].every((c) => c.summarizedAt || c.failed);
  let failures = 0;
  const loop = (async () => {
    while (!stop) {
      // A poll that fails (a connection reset under load) is counted, and the next one goes on.
      await poll().catch(() => failures++);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    async until(waitForTranscripts: boolean) {
      while (transcribing && waitForTranscripts && !settled() && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      stop = true;
      await loop;
      return { seen, failures };
    },
  };
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '20' },
      contacts: { type: 'string', default: '5' },
      talk: { type: 'string', default: '3' },
      scale: { type: 'string', default: '0.1' },
      database: { type: 'string' },
    },
  });
  await runCallMediaBench(
    {
      sessions: Number(values.sessions),
      contacts: Number(values.contacts),
      talkSeconds: Number(values.talk),
      scale: Number(values.scale),
      database: values.database,
    },
    (line) => process.stdout.write(`${line}\n`),
  );
}
