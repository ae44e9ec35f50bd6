import os from 'node:os';
import path from 'node:path';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

/** Whether a listening address is reachable from this machine alone. */
export const isLoopback = (host: string) => /^(localhost|::1|\[::1\]|127(\.\d{1,3}){3})$/i.test(host.trim());

/** The address a process of this machine reaches a server listening on `host` at. */
export function localUrl(host: string, port: number): string {
  const reachable = ['0.0.0.0', '::', '[::]'].includes(host.trim())
    ? '127.0.0.1'
    : host.includes(':') && !host.startsWith('[')
      ? `[${host}]`
      : host;
  return `http://${reachable}:${port}`;
}
const dataDirOf = (databaseUrl: string) =>
  databaseUrl.startsWith('sqlite:') ? path.dirname(path.resolve(databaseUrl.slice('sqlite:'.length))) : path.resolve('data');

const commaList = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The addresses whose X-Forwarded-For is believed; the same parser Express uses, so a value it refuses stops start-up. */
function validProxyList(value: string): boolean {
  try {
    proxyAddr.compile(commaList(value));
    return true;
  } catch {
    return false;
  }
}

/* Writes take turns at the one store, so workers past a few add memory more than speed. */
const DEFAULT_WORKERS = Math.min(os.availableParallelism(), 4);

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z
      .string()
      .default('sqlite:./data/ringbook.db')
      .refine(
        (v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\/.+/.test(v),
        'must be sqlite:<path> (e.g. sqlite:./data/ringbook.db) or postgres://user@host:port/database',
      ),
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }).optional(),
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEMO_DATA: z.enum(['0', '1']).optional(),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    SESSION_MAX_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(12),
    WORKERS: z.coerce.number().int().min(1).max(64).default(DEFAULT_WORKERS),
    RECORD_CACHE_SIZE: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
    TRUST_PROXY: z
      .string()
      .default('')
      .refine(validProxyList, 'must be a comma-separated list of proxy addresses or subnets (e.g. 10.0.0.1, 10.0.0.0/8, loopback)'),
    HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(300).default(10),
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
    KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(5),
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    CARRIER: z
      .enum(['simulated'], { error: "must be 'simulated' (the carrier npm start runs; set CARRIER_URL for another)" })
      .default('simulated'),
    CARRIER_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) address of a carrier service' }).optional(),
    CARRIER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    CARRIER_CALLBACK_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) address the carrier can reach this server at' })
      .optional(),
    CARRIER_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    CARRIER_TIME_SCALE: z.coerce.number().gt(0, 'must be a number above 0').max(100).default(1),
    DATA_DIR: z.string().min(1).optional(),
    TRANSCRIBER: z.enum(['pocketsphinx', 'none'], { error: "must be 'pocketsphinx' or 'none'" }).default('pocketsphinx'),
    TRANSCRIPTION_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    TRANSCRIPTION_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
    CALLBACK_ALLOWED_HOSTS: z.string().default(''),
    EVENT_POLL_SECONDS: z.coerce.number().gt(0, 'must be a number above 0').max(3600).optional(),
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// address, e.g. smtp://user:pass@mail.example.com:587' })
      .optional(),
    IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(10 * 1024 ** 3)
      .default(50 * 1024 * 1024),
    IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(100_000_000).default(1_000_000),
    CLOCK_START: z.iso.datetime({ offset: true, error: 'must be an ISO date-time, e.g. 2026-11-23T17:00:00Z' }).optional(),
  })
  .refine((env) => env.SECRET_KEY || env.DATABASE_URL.startsWith('sqlite:'), {
    path: ['SECRET_KEY'],
    message: 'is required with a PostgreSQL store: every server on it must derive the same tokens',
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    secretKey: env.SECRET_KEY,
    logLevel: env.LOG_LEVEL,
    /* 'asked': DEMO_DATA=1 was set; 'default': not set, so demo data only while the server is reachable from this machine alone. */
    demoData: env.DEMO_DATA === '1' ? ('asked' as const) : env.DEMO_DATA === '0' ? ('off' as const) : ('default' as const),
    exposed: !isLoopback(env.HOST),
    session: { idleSeconds: env.SESSION_IDLE_MINUTES * 60, maxSeconds: env.SESSION_MAX_HOURS * 3600 },
    workers: env.WORKERS,
    recordCacheSize: env.RECORD_CACHE_SIZE,
    trustProxy: commaList(env.TRUST_PROXY),
    carrier: {
      name: env.CARRIER,
      url: env.CARRIER_URL?.replace(/\/+$/, ''),
      secret: env.CARRIER_SECRET,
      port: env.CARRIER_PORT,
      timeScale: env.CARRIER_TIME_SCALE,
      /* Where the carrier posts calls' events, when not where this server listens (any of its processes answers). */
      callbackUrl: env.CARRIER_CALLBACK_URL?.replace(/\/+$/, ''),
    },
    /* Files the store does not hold: recordings (and the simulated carrier's, until fetched). Beside the SQLite file by default. */
    dataDir: env.DATA_DIR ?? dataDirOf(env.DATABASE_URL),
    /* Calls transcribed at once per process (each runs a recognizer per channel); 0: this process transcribes none. */
    transcription: { engine: env.TRANSCRIBER, concurrency: env.TRANSCRIPTION_CONCURRENCY, leaseMs: env.TRANSCRIPTION_LEASE_SECONDS * 1000 },
    callbackAllowedHosts: commaList(env.CALLBACK_ALLOWED_HOSTS),
    /* How often dialer streams look for events no signal told of: 0.2 s on SQLite (its processes poll), 5 s on
       PostgreSQL as a safety net (other servers' events arrive by LISTEN/NOTIFY). */
    eventPollMs: env.EVENT_POLL_SECONDS === undefined ? undefined : env.EVENT_POLL_SECONDS * 1000,
    /* Where disposition e-mails go out (mail/mailer.ts); without it none is queued, and calls show email_sent '0'. */
    smtpUrl: env.SMTP_URL,
    /* CSV imports: the largest file and the most rows one may have (docs/api.md, "Import"). */
    imports: { maxBytes: env.IMPORT_MAX_BYTES, maxRows: env.IMPORT_MAX_ROWS },
    clockStart: env.CLOCK_START ? new Date(env.CLOCK_START) : undefined,
    connections: {
      headersTimeoutMs: env.HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      maxConnections: env.MAX_CONNECTIONS,
    },
  }));

export type Config = z.output<typeof schema>;

export class ConfigError extends Error {}

/** Parses the environment once; a wrong value stops start-up with one line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(defined);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
