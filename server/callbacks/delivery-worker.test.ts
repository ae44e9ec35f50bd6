import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/database.js';
import { Webhook } from 'standardwebhooks';
import { nowMs, resetClock, setClock } from '../lib/clock.js';
import { createLogger } from '../lib/logger.js';
import { createVendor } from '../modules/members/members.service.js';
import { type Receiver, startReceiver } from '../test/receiver.js';
import { DeliveryWorker, type DeliveryOptions } from './delivery-worker.js';
import { dueCandidates, enqueueCallback } from './outbox.repository.js';
import { createSender } from './sender.js';

/*
 * The delivery worker on a real store, sending to receivers on 127.0.0.1. Rows are written as dial events write them
 * (enqueueCallback, one ordering key per session); each test uses sessions of its own.
 */
let dir: string;
let store: Store;
let orgId: number;
const workers: DeliveryWorker[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-delivery-'));
  store = await openStore(`sqlite:${path.join(dir, 'test.db')}`);
  orgId = (
    await createVendor(
      { store, secretKey: crypto.randomBytes(32) },
      { username: 'deliveries', password: 'a long password', email: 'd@example.com' },
    )
  ).org_id;
});
afterEach(async () => {
  // Receivers first: a request one of them holds then ends at once, so stopping a worker does not wait for its time-out.
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

function worker(options: Partial<DeliveryOptions> = {}, timeoutMs = 20_000): DeliveryWorker {
  const started = new DeliveryWorker(store, createSender({ allowedHosts: ['127.0.0.1'], timeoutMs }), createLogger('silent'), {
    leaseMs: 60_000,
    ...options,
  });
  workers.push(started);
  started.start();
  return started;
}

let lastSession = 0;
/** `count` sessions writing `each` callbacks to `url` (`/s<session>`), the n-th of a session's bodies `{"n":n}`. */
async function sessions(url: string, count: number, each: number): Promise<number[]> {
  const ids = Array.from({ length: count }, () => ++lastSession);
  const rows = ids.flatMap((sessionId) =>
    Array.from({ length: each }, (_, n) => ({
      orgId,
      sessionId,
      type: 'api_callbegin',
      url: `${url}/s${sessionId}?token=x`,
      body: JSON.stringify({ n }),
    })),
  );
  await store.write((tx) => enqueueCallback(tx, rows, nowMs()));
  return ids;
}

const rowsOf = (ids: number[]) => store.db.selectFrom('outbox').selectAll().where('session_id', 'in', ids).orderBy('id').execute();

/** Waits for the rows of `ids` to satisfy `done` (the worker records outcomes in the store, not in an event). */
async function untilRows(ids: number[], done: (rows: Awaited<ReturnType<typeof rowsOf>>) => boolean, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await rowsOf(ids);
    if (done(rows)) return rows;
    if (Date.now() > until)
      throw new Error(`Waited ${timeoutMs} ms for the outbox rows: ${JSON.stringify(rows.map((r) => [r.id, r.state, r.attempts]))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Each session's bodies in the order they arrived: every session's must be 0, 1, 2... */
function arrivalOrder(got: Receiver['received']) {
  const bySession = new Map<string, number[]>();
  for (const r of got) bySession.set(r.path, [...(bySession.get(r.path) ?? []), (JSON.parse(r.body) as { n: number }).n]);
  return [...bySession.values()];
}

describe('a slow receiver slows only itself', () => {
  it("delivers a prompt receiver's callbacks while another holds its requests, each session's in order", async () => {
    const [slow, prompt] = [await receiver(), await receiver()];
    slow.hangNext(1_000);
    // The slow sessions' rows are the oldest: a worker that waits for whole batches waits for them first.
    const held = await sessions(slow.url, 5, 2);
    const quick = await sessions(prompt.url, 6, 3);
    worker();
    await slow.waitFor(5);
    const got = await prompt.waitFor(18, 15_000);
    expect(arrivalOrder(got)).toEqual(Array.from({ length: 6 }, () => [0, 1, 2]));
    expect((await untilRows(quick, (rows) => rows.every((r) => r.state === 'delivered'))).map((r) => r.attempts)).toEqual(
      Array(18).fill(1),
    );
    // The held requests are still in their first attempt: nothing above waited for them.
    const heads = (await rowsOf(held)).filter((r) => r.attempts > 0);
    expect(heads).toHaveLength(5);
    expect(heads.every((r) => r.state === 'pending' && r.attempts === 1 && r.lease_owner !== null && r.last_error === null)).toBe(true);
    expect(slow.received).toHaveLength(5);
  });

  it('sends at most perDestination at once to one destination, and the other slots serve everyone else', async () => {
    const [slow, prompt] = [await receiver(), await receiver()];
    slow.hangNext(1_000);
    await sessions(slow.url, 5, 1);
    const quick = await sessions(prompt.url, 4, 5);
    worker({ total: 4, perDestination: 2 });
    await slow.waitFor(2);
    expect(arrivalOrder(await prompt.waitFor(20, 15_000))).toEqual(Array.from({ length: 4 }, () => [0, 1, 2, 3, 4]));
    await untilRows(quick, (rows) => rows.every((r) => r.state === 'delivered'));
    expect(slow.received).toHaveLength(2);
  });
});

describe('delivery', () => {
  it('leaves out of a claim the rows to a destination without a free slot, however its URL was spelled', async () => {
    const [row] = await rowsOf(await sessions('HTTP://LocalHost:80', 1, 1));
    expect(row!.url).toBe(`http://localhost/s${row!.session_id}?token=x`);
    const candidates = async (busy: string[]) => (await dueCandidates(store.db, nowMs(), busy)).map((c) => c.id);
    expect(await candidates([])).toContain(row!.id);
    expect(await candidates(['http://127.0.0.1', 'https://localhost', 'http://localhost:8080'])).toContain(row!.id);
    expect(await candidates(['http://127.0.0.1', 'http://localhost'])).not.toContain(row!.id);
  });

  it('with two workers on one store, sends every callback once, each session in order', async () => {
    const prompt = await receiver();
    const ids = await sessions(prompt.url, 20, 4);
    worker({ perDestination: 3 });
    worker({ perDestination: 3 });
    const got = await prompt.waitFor(80, 15_000);
    await untilRows(ids, (rows) => rows.every((r) => r.state === 'delivered'));
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(80);
    expect(arrivalOrder(got)).toEqual(Array.from({ length: 20 }, () => [0, 1, 2, 3]));
    expect(got).toHaveLength(80);
  });

  it('on stop, lets the send in flight end and records its outcome', async () => {
    const answers: http.ServerResponse[] = [];
    const server = http.createServer((req, res) => void req.resume().on('end', () => answers.push(res)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const ids = await sessions(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 1, 1);
    const running = worker();
    await untilRows(ids, () => answers.length === 1);
    const stopped = running.stop();
    answers[0]!.writeHead(204).end();
    await stopped;
    server.close();
    expect(await rowsOf(ids)).toMatchObject([{ state: 'delivered', attempts: 1, last_status: 204, lease_owner: null }]);
  });

  it("signs with the real time, whatever the product's clock says, so a standard verifier accepts the callback", async () => {
    const prompt = await receiver();
    setClock(new Date('2031-06-02T14:00:00Z'));
    try {
      const ids = await sessions(prompt.url, 1, 1);
      worker();
      const [got] = await prompt.waitFor(1);
      await untilRows(ids, (rows) => rows[0]!.state === 'delivered');
      const { callback_secret: secret } = await store.db
        .selectFrom('organisations')
        .select('callback_secret')
        .where('id', '=', orgId)
        .executeTakeFirstOrThrow();
      // The package's verify reads Date.now() and allows 5 minutes either way.
      expect(new Webhook(secret!).verify(got!.body, got!.headers)).toEqual({ n: 0 });
    } finally {
      resetClock();
    }
  });

  it('refuses a lease that would not outlast a send', () => {
    expect(
      () => new DeliveryWorker(store, createSender({ allowedHosts: [], timeoutMs: 10_000 }), createLogger('silent'), { leaseMs: 15_000 }),
    ).toThrow(/must outlast the sender's time-out/);
  });
});
