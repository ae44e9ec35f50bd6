import type { Logger } from './lib/logger.js';
import type { AuthContext } from './auth/access.js';

declare global {
  namespace Express {
    // Declaration merging needs an interface here.
    interface Request {
      id: string;
      log: Logger;
      auth?: AuthContext;
    }
  }
}
export {};
