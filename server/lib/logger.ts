import pino, { type Logger } from 'pino';

export type { Logger };

/** Anything that could carry a secret is redacted, wherever a log call puts it. */
const redact = {
  paths: [
    '*.authorization',
    '*.cookie',
    '*["set-cookie"]',
    '*.password',
    '*.password_hash',
    '*.token',
    '*.bearer_token',
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.authorization',
    'headers.cookie',
  ],
  censor: '[redacted]',
};

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: true });
  // When whatever reads our output goes away (a closed pipe: EPIPE), lines are dropped; the process goes on, or on
  // with its shutdown, rather than dying or hanging on a failed write.
  destination.on('error', () => undefined);
  return pino({ level, redact, base: undefined }, destination);
}
