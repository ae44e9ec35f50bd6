import pino, { type Logger } from 'pino';

export type { Logger };

/** Anything that could carry a secret is redacted, wherever a log call puts it. */
const redact = {
  paths: [
    '*.authorization', '*.cookie', '*["set-cookie"]', '*.password', '*.password_hash', '*.token', '*.bearer_token',
    'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
  ],
  censor: '[redacted]',
};

export function createLogger(level: string): Logger {
  return pino({ level, redact, base: undefined });
}
