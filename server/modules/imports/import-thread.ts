import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { nowMs } from '../../lib/clock.js';
import type { Lease } from '../../lib/lease-loop.js';
import type { Logger } from '../../lib/logger.js';
import type { ImportRow } from './imports.repository.js';

/*
 * An import's run (or undo) on SQLite, in a worker thread of its own with its own connections to the store.
 * better-sqlite3 answers synchronously, so on the server's thread every statement of a chunk, and its commit (FTS5
 * writes its segments then: 10-30 ms a chunk of 500 rows), held up every request of the process; the grid's list
 * waited behind them (p99 118-206 ms while 200,000 rows ran, against 24-67 ms with the thread). In a thread the chunk
 * waits for the store's write lock as another process's would (several connections to one SQLite file, busy waits:
 * docs/store.md), and the server's thread goes on answering.
 */

/** What the thread is given (structured-cloned): where the store is, what to run, under which lease and clock. */
export type ImportThreadData = {
  databaseUrl: string;
  logLevel: string;
  item: ImportRow;
  owner: string;
  untilMs: number;
  /** The product's clock (`lib/clock.ts`) as this thread reads it, so that the run's timestamps are the same. */
  clockOffsetMs: number;
};

/*
 * The thread loads our TypeScript through tsx's require hook, whatever ran this process (the server, or Vitest): Node 20
 * does not apply ESM loader hooks (`--import tsx`) in worker threads (nodejs/node#47747), so a thread given a .ts file
 * fails with ERR_UNKNOWN_FILE_EXTENSION.
 */
const require = createRequire(import.meta.url);
const THREAD_CODE = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(require.resolve('./import-worker.ts'))});`;

/** The message that tells the thread its lease ended (the process stops, or the lease was lost). */
export const ABORT = 'abort';

/** Runs `item` in a new thread; resolves when it ended, rejects when the thread failed (the lease then runs out). */
export function runInThread(databaseUrl: string, logger: Logger, item: ImportRow, lease: Lease): Promise<void> {
  const workerData: ImportThreadData = {
    databaseUrl,
    logLevel: logger.level,
    item,
    owner: lease.owner,
    untilMs: lease.untilMs,
    clockOffsetMs: nowMs() - Date.now(),
  };
  const worker = new Worker(THREAD_CODE, { eval: true, workerData });
  const abort = () => worker.postMessage(ABORT);
  if (lease.signal.aborted) abort();
  else lease.signal.addEventListener('abort', abort, { once: true });
  return new Promise<void>((resolve, reject) => {
    let failed: unknown;
    worker.once('error', (error) => (failed = error));
    worker.once('exit', (code) => {
      lease.signal.removeEventListener('abort', abort);
      if (failed !== undefined || code !== 0) reject(failed ?? new Error(`The import's thread exited with code ${code}.`));
      else resolve();
    });
  });
}
