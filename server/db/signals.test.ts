import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, type TestDatabase, testDatabase } from '../test/databases.js';
import { openStore, type Store } from './database.js';
import { postgresSignals, signal, type Signals } from './signals.js';

/* LISTEN/NOTIFY between servers (db/signals.ts): heard after commit only, and again after the connection is lost. */
describe.runIf(onPostgres)('signals between servers', () => {
  let database: TestDatabase;
  let store: Store;
  let signals: Signals;
  beforeAll(async () => {
    database = await testDatabase('');
    store = await openStore(database.url);
    signals = postgresSignals(database.url, { retryMs: 20 });
  });
  afterAll(async () => {
    await signals?.close();
    await store?.close();
    await database?.drop();
  });

  /** Resolves at the next call of the listener. */
  function nextSignal(channel: string) {
    return new Promise<void>((resolve) => {
      const stop = signals.listen(channel, () => {
        void stop.then((s) => s());
        resolve();
      });
    });
  }

  it('hears a signal once its write commits, and never one rolled back', async () => {
    let heard = 0;
    const stop = await signals.listen('test_commits', () => heard++);
    const before = heard;
    await store.write(async (tx) => {
      await signal(tx, 'test_commits');
      await signal(tx, 'test_commits');
    });
    // Two signals of one transaction are one.
    await expect.poll(() => heard).toBe(before + 1);
    await store
      .write(async (tx) => {
        await signal(tx, 'test_commits');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // A second commit's signal arrives after any signal of the rolled-back write would have.
    const after = nextSignal('test_commits');
    await store.write((tx) => signal(tx, 'test_commits'));
    await after;
    expect(heard).toBe(before + 2);
    await stop();
  });

  it('listens again after its connection is lost, and tells its listeners to read what they may have missed', async () => {
    let heard = 0;
    const stop = await signals.listen('test_lost', () => heard++);
    heard = 0;
    const killed = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen%'`.execute(store.db);
    expect(killed.rows[0]!.n).toBe(1);
    // On reconnecting, every listener is told once, as if signalled.
    await expect.poll(() => heard, { timeout: 10_000 }).toBe(1);
    await store.write((tx) => signal(tx, 'test_lost'));
    await expect.poll(() => heard, { timeout: 10_000 }).toBe(2);
    await stop();
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    await expect(signals.listen('x; drop table contacts', () => undefined)).rejects.toThrow(/Not a channel name/);
  });
});
