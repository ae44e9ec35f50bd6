import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Logger } from './lib/logger.js';
import { RecordCache } from './lib/record-cache.js';
import { JobRunner } from './modules/bulk-jobs/job-runner.js';
import { createDialerRuntime, type DialerRuntime } from './modules/dial-sessions/dialer-runtime.js';
import { Housekeeper } from './modules/housekeeping/housekeeper.js';

/**
 * What the app is built from: the open store, the parsed configuration, the server key, this process's record cache,
 * and its background work: the dialer runtime (carrier, event hub, callback delivery), the bulk job runner and the
 * housekeeper (retention), which whoever serves requests starts (`startBackground`) and stops.
 */
export type Context = {
  store: Store;
  config: Config;
  secretKey: Buffer;
  logger: Logger;
  records: RecordCache;
  dialer: DialerRuntime;
  jobs: JobRunner;
  housekeeper: Housekeeper;
};

export function createContext(parts: Omit<Context, 'records' | 'dialer' | 'jobs' | 'housekeeper'>): Context {
  const ctx = {
    ...parts,
    records: new RecordCache(parts.config.recordCacheSize),
    jobs: new JobRunner(parts.store, parts.logger),
    housekeeper: new Housekeeper(parts.store, parts.logger),
  } as Context;
  ctx.dialer = createDialerRuntime(ctx);
  return ctx;
}

export function startBackground(ctx: Context): void {
  ctx.dialer.start();
  ctx.jobs.start();
  ctx.housekeeper.start();
}

/** Stops background work; event streams end, and work in hand finishes its round first. */
export async function stopBackground(ctx: Context): Promise<void> {
  await Promise.all([ctx.dialer.stop(), ctx.jobs.stop(), ctx.housekeeper.stop()]);
}
