/*
 * npm run bench:slow-receivers [-- --slow-ms 60000 --seconds 30 --every-ms 500 --slow 5 --prompt 6]
 * Whether a slow callback receiver slows anyone else's callbacks. A delivery worker, built as each server process
 * builds it (the production sender time-out), delivers from a fresh store while sessions write callbacks to the outbox
 * every `every-ms` for `seconds`: `prompt` sessions to a receiver in its own process that answers at once, and in the
 * second run also `slow` sessions to a receiver that answers after `slow-ms`. It prints the prompt receiver's delivery
 * latency (from the row's commit to its arrival) in both runs; a callback not there `LIMIT_MS` after the last write
 * counts as never delivered, and the percentiles take it as such.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DeliveryWorker } from '../server/callbacks/delivery-worker.js';
import { enqueueCallback } from '../server/callbacks/outbox.repository.js';
import { DELIVERY_TIMEOUT_MS } from '../server/callbacks/retry-policy.js';
import { createSender } from '../server/callbacks/sender.js';
import { openStore, type Store } from '../server/db/database.js';
import { nowMs } from '../server/lib/clock.js';
import { createLogger } from '../server/lib/logger.js';
import { createVendor } from '../server/modules/members/members.service.js';
import { startCallbackReceiver } from './callback-receiver.js';
import { percentile } from './http.js';

const { values: args } = parseArgs({
  options: {
    'slow-ms': { type: 'string', default: '60000' },
    seconds: { type: 'string', default: '30' },
    'every-ms': { type: 'string', default: '500' },
    slow: { type: 'string', default: '5' },
    prompt: { type: 'string', default: '6' },
  },
});
const opts = {
  slowMs: Number(args['slow-ms']),
  seconds: Number(args.seconds),
  everyMs: Number(args['every-ms']),
  slow: Number(args.slow),
  prompt: Number(args.prompt),
};
const LIMIT_MS = 60_000;
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver that answers 200 after `delayMs`, or never if the sender gives up first. */
async function slowReceiver(delayMs: number) {
  const server = http.createServer((req, res) => {
    req.resume();
    const timer = setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    res.on('close', () => clearTimeout(timer));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

type Run = { latencies: number[]; written: number; missing: number };

async function run(slowSessions: number): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-slow-'));
  const store = await openStore(`sqlite:${path.join(dir, 'bench.db')}`);
  const prompt = await startCallbackReceiver();
  const slow = await slowReceiver(opts.slowMs);
  const worker = new DeliveryWorker(
    store,
    createSender({ allowedHosts: ['127.0.0.1'], timeoutMs: DELIVERY_TIMEOUT_MS }),
    createLogger('silent'),
  );
  try {
    const vendor = await createVendor(
      { store, secretKey: crypto.randomBytes(32) },
      { username: 'bench', password: 'a long password', email: 'b@example.com' },
    );
    const urls = [
      ...Array.from({ length: opts.prompt }, (_, i) => `${prompt.url}/hook?session=${i}`),
      ...Array.from({ length: slowSessions }, (_, i) => `${slow.url}/hook?session=${i}`),
    ];
    worker.start();
    const ends = Date.now() + opts.seconds * 1000;
    while (Date.now() < ends) {
      await write(store, vendor.org_id, urls);
      worker.nudge();
      await sleep(opts.everyMs);
    }
    return await measure(store, prompt, Date.now() + LIMIT_MS);
  } finally {
    await slow.close();
    await worker.stop();
    await prompt.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One callback for each session, session i's key being `session:i`, as a dial event would write them. */
function write(store: Store, orgId: number, urls: string[]) {
  return store.write((tx) =>
    enqueueCallback(
      tx,
      urls.map((url, i) => ({ orgId, sessionId: i + 1, type: 'api_callbegin', url, body: '{"ds_id":"1"}' })),
      nowMs(),
    ),
  );
}

/** Waits (up to `until`) for every prompt callback, then answers each one's latency, or Infinity if it never came. */
async function measure(store: Store, prompt: Awaited<ReturnType<typeof startCallbackReceiver>>, until: number): Promise<Run> {
  const rows = await store.db.selectFrom('outbox').select(['id', 'url', 'created_at_ms']).where('url', 'like', `${prompt.url}/%`).execute();
  while ((await prompt.counts()).distinct < rows.length && Date.now() < until) await sleep(100);
  const arrivals = await prompt.arrivals();
  const latencies = rows.map((r) => (arrivals.get(`msg_${r.id}`)?.[0] ?? Infinity) - r.created_at_ms).sort((a, b) => a - b);
  return { latencies, written: rows.length, missing: latencies.filter((l) => l === Infinity).length };
}

const seconds = (ms: number) => (ms === Infinity ? 'never' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

function print(name: string, r: Run) {
  log(
    `  ${name.padEnd(42)} ${String(r.written).padStart(5)} callbacks  p50 ${seconds(percentile(r.latencies, 50)).padStart(8)}  ` +
      `p99 ${seconds(percentile(r.latencies, 99)).padStart(8)}  max ${seconds(r.latencies.at(-1) ?? NaN).padStart(8)}  not delivered ${r.missing}`,
  );
}

log(
  `Slow callback receivers: ${opts.prompt} sessions to a prompt receiver, a callback each every ${opts.everyMs} ms for ${opts.seconds} s; ` +
    `sender time-out ${DELIVERY_TIMEOUT_MS} ms; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
log("The prompt receiver's delivery latency (commit to arrival):");
print('without slow receivers', await run(0));
print(`beside ${opts.slow} sessions answered after ${seconds(opts.slowMs)}`, await run(opts.slow));
