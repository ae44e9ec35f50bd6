import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../../db/database.js';
import { setClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { runImportItem } from './import-job.js';
import { ABORT, type ImportThreadData } from './import-thread.js';

/* The thread an import runs in (import-thread.ts): its own store, the run, then the thread ends. */

const data = workerData as ImportThreadData;
setClock(new Date(Date.now() + data.clockOffsetMs));
const abort = new AbortController();
parentPort!.on('message', (message) => message === ABORT && abort.abort());
parentPort!.unref();
void (async () => {
  const store = await openStore(data.databaseUrl);
  try {
    await runImportItem(store, createLogger(data.logLevel), { owner: data.owner, untilMs: data.untilMs, signal: abort.signal }, data.item);
  } finally {
    await store.close();
  }
})();
