import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../db/database.js';
import type { Pass } from '../db/passes.js';
import { type TestDatabase, testDatabase } from '../test/databases.js';
import { nowMs } from './clock.js';
import { LeaseLoop, type LeaseLoopOptions } from './lease-loop.js';
import { createLogger } from './logger.js';
import { passTask } from './pass-task.js';

/*
 * The lease loop with the housekeeper's kind of task, a periodic pass, on two stores opened on one database (two
 * servers' worth; TEST_DATABASE=postgres for PostgreSQL): one server passes at a time, a pass stopped half-way is let go
 * of for another server to pass at once, and a pass whose lease was lost is told to stop.
 */
let dir: string;
let database: TestDatabase;
let stores: [Store, Store];
const loops: LeaseLoop<Pass>[] = [];
let passes = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-lease-loop-'));
  database = await testDatabase(dir);
  stores = [await openStore(database.url), await openStore(database.url)];
}, 60_000);
afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.stop()));
});
afterAll(async () => {
  for (const store of stores ?? []) await store.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A latch: `wait()` resolves once `open()` was called. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, wait: () => opened };
}

type Watch = {
  /** Each loop's pass when it began: its signal, and how to end it. */
  began: { store: number; signal: AbortSignal; end: () => void }[];
  /** Resolves at the next pass that begins. */
  nextPass(): Promise<void>;
  /** Resolves once loop `store` has looked `n` more times whether the pass is due. */
  looks(store: number, n: number): Promise<void>;
};

/** A loop per store over one pass of its own name, each pass lasting until the test ends it or its signal aborts. */
function passLoops(options: Partial<LeaseLoopOptions> = {}): [LeaseLoop<Pass>, LeaseLoop<Pass>, Watch, Pass] {
  const pass = { name: `test pass ${++passes}`, everyMs: 3_600_000 };
  let began = latch();
  const lookers: { store: number; left: number; done: () => void }[] = [];
  const watch: Watch = {
    began: [],
    nextPass: () => began.wait(),
    looks: (store, n) => new Promise((done) => lookers.push({ store, left: n, done })),
  };
  const made = stores.map((store, n) => {
    const task = passTask(store, pass, async (signal) => {
      const ended = latch();
      signal.addEventListener('abort', ended.open);
      watch.began.push({ store: n, signal, end: ended.open });
      began.open();
      began = latch();
      await ended.wait();
    });
    const counted = {
      ...task,
      anyDue: async (db: Store['db'], at: number) => {
        const due = await task.anyDue(db, at);
        for (const l of lookers) if (l.store === n && --l.left === 0) l.done();
        return due;
      },
    };
    const loop = new LeaseLoop(store, createLogger('silent'), counted, { concurrency: 1, leaseMs: 30_000, pollMs: 10, ...options });
    loops.push(loop);
    return loop;
  });
  return [made[0]!, made[1]!, watch, pass];
}

const rowOf = (pass: Pass) => stores[0].db.selectFrom('passes').selectAll().where('name', '=', pass.name).executeTakeFirst();

it('passes on one server at a time; the next pass is due an interval after the last ended', async () => {
  const [a, b, watch, pass] = passLoops();
  const first = watch.nextPass();
  a.start();
  b.start();
  await first;
  const [passing] = watch.began;
  const other = 1 - passing!.store;
  // The other server looks while the pass runs, and finds it taken.
  await watch.looks(other, 5);
  expect(watch.began).toHaveLength(1);
  expect(await rowOf(pass)).toMatchObject({ lease_owner: [a, b][passing!.store]!.owner });

  passing!.end();
  await expect.poll(async () => (await rowOf(pass))?.lease_owner ?? 'released').toBe('released');
  const row = await rowOf(pass);
  expect(Number(row!.due_at_ms)).toBeGreaterThan(nowMs() + pass.everyMs - 60_000);
  // Not due again: both look, and neither passes.
  await Promise.all([watch.looks(0, 3), watch.looks(1, 3)]);
  expect(watch.began).toHaveLength(1);
});

it('a server that stops ends its pass half-way and lets go of it: another passes at once', async () => {
  const [a, b, watch, pass] = passLoops();
  const first = watch.nextPass();
  a.start();
  await first;
  await a.stop();
  expect(watch.began[0]!.signal.aborted).toBe(true);
  const row = await rowOf(pass);
  expect(row).toMatchObject({ lease_owner: null, lease_until_ms: null });
  expect(Number(row!.due_at_ms)).toBeLessThanOrEqual(nowMs());

  const second = watch.nextPass();
  b.start();
  await second;
  expect(watch.began.map((p) => p.store)).toEqual([0, 1]);
  expect(await rowOf(pass)).toMatchObject({ lease_owner: b.owner });
});

it('tells a pass to stop when a renewal finds its lease taken, and leaves the lease to its new holder', async () => {
  const [a, , watch, pass] = passLoops({ leaseMs: 300 });
  const first = watch.nextPass();
  a.start();
  await first;
  // Another server took the lease (this one stalled past its end, say).
  await stores[1].write((tx) =>
    tx
      .updateTable('passes')
      .set({ lease_owner: 'someone else', lease_until_ms: nowMs() + 60_000 })
      .where('name', '=', pass.name)
      .execute(),
  );
  const stopped = latch();
  watch.began[0]!.signal.addEventListener('abort', stopped.open);
  if (watch.began[0]!.signal.aborted) stopped.open();
  await stopped.wait();
  await a.stop();
  expect(await rowOf(pass)).toMatchObject({ lease_owner: 'someone else' });
});
