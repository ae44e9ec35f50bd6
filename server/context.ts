import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Logger } from './lib/logger.js';

/** What the app is built from: the open store, the parsed configuration and the server key. */
export type Context = { store: Store; config: Config; secretKey: Buffer; logger: Logger };
