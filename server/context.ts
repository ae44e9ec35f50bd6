import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Logger } from './lib/logger.js';
import { RecordCache } from './lib/record-cache.js';
import { createDialerRuntime, type DialerRuntime } from './modules/dial-sessions/dialer-runtime.js';

/**
 * What the app is built from: the open store, the parsed configuration, the server key, this process's record cache
 * and its dialer runtime (carrier, event hub, callback delivery; started by whoever serves requests).
 */
export type Context = { store: Store; config: Config; secretKey: Buffer; logger: Logger; records: RecordCache; dialer: DialerRuntime };

export function createContext(parts: Omit<Context, 'records' | 'dialer'>): Context {
  const ctx = { ...parts, records: new RecordCache(parts.config.recordCacheSize) } as Context;
  ctx.dialer = createDialerRuntime(ctx);
  return ctx;
}
