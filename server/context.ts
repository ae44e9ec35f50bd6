import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Logger } from './lib/logger.js';
import { RecordCache } from './lib/record-cache.js';

/** What the app is built from: the open store, the parsed configuration, the server key and this process's record cache. */
export type Context = { store: Store; config: Config; secretKey: Buffer; logger: Logger; records: RecordCache };

export function createContext(parts: Omit<Context, 'records'>): Context {
  return { ...parts, records: new RecordCache(parts.config.recordCacheSize) };
}
