import cluster from 'node:cluster';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { TRANSCRIPTION_TEMP } from './context.js';
import { createHttpServer } from './lib/http-server.js';
import { startCarrierChild } from './carrier/child.js';
import { carrierSecretOf } from './carrier/secret.js';
import { type Config, ConfigError, loadConfig, localUrl } from './config.js';
import { createContext, startBackground, stopBackground } from './context.js';
import { isEmpty, openStore } from './db/database.js';
import { secretKeyOf } from './auth/secret-key.js';
import { currentDate, setClock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { publishedDemoLogins, seedDemo, type DemoLogin } from './seed/demo.js';

/*
 * One process per worker (WORKERS, see config.ts), all serving the same port: Node's cluster hands each new
 * connection to the next worker. The primary prepares the store (migrations, demo data) before any worker
 * opens it, then only supervises. Workers share nothing but the store, whose writes they take turns at.
 * With WORKERS=1 the one process does everything itself.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHUTDOWN_GRACE_MS = 10_000;
const RESTARTS_PER_MINUTE = 5;
/** Past its own grace period, how long the primary waits for a worker before ending it. */
const WORKER_EXIT_MARGIN_MS = 5_000;

async function main() {
  // Output is for people; a reader that went away must not stop the server (see createLogger).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const config = loadConfig();
  // The clock reads CLOCK_START when the process started, not when it got here: servers started together agree.
  if (config.clockStart) setClock(config.clockStart, performance.timeOrigin);
  const logger = createLogger(config.logLevel);
  if (cluster.isWorker) {
    await serve(config, logger.child({ worker: cluster.worker!.id }));
    return;
  }
  const logins = await prepareStore(config, logger);
  removeStaleFiles(TRANSCRIPTION_TEMP, 6 * 3600_000);
  const withCarrier = await ensureCarrier(config, logger);
  if (withCarrier.workers === 1) {
    const port = await serve(withCarrier, logger);
    printBanner(withCarrier, port, logins);
  } else {
    supervise(withCarrier, logger, logins);
  }
}

/** What a transcription left when its process was killed (none runs for hours: its recognizers time out). */
function removeStaleFiles(dir: string, olderThanMs: number) {
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const file = path.join(dir, entry);
    if (Date.now() - fs.statSync(file).mtimeMs > olderThanMs) fs.rmSync(file, { recursive: true, force: true });
  }
}

/**
 * One carrier for the deployment: the one CARRIER_URL names, or else the simulated carrier started here, beside the
 * workers (which are given its address and the shared secret through the environment they inherit).
 */
async function ensureCarrier(config: Config, logger: Logger): Promise<Config> {
  if (config.carrier.url) return config;
  const secret = carrierSecretOf(config.carrier.secret, secretKeyOf(config));
  const carrier = await startCarrierChild({
    secret,
    port: config.carrier.port,
    timeScale: config.carrier.timeScale,
    dataDir: path.join(config.dataDir, 'carrier'),
    logLevel: config.logLevel,
    onExit: (code) => logger.error({ code }, 'the simulated carrier exited; starting it again'),
  });
  process.env.CARRIER_URL = carrier.url;
  process.env.CARRIER_SECRET = secret;
  logger.info({ url: carrier.url }, 'simulated carrier started');
  return loadConfig();
}

/**
 * Applies migrations and, on an empty store, seeds the demo data; answers the demo logins it created. A server
 * reachable from other machines (HOST not loopback) neither seeds nor keeps demo accounts with the published password
 * unless DEMO_DATA=1 asks for them: it says so, and refuses to start on a store that has them.
 */
async function prepareStore(config: Config, logger: Logger): Promise<DemoLogin[]> {
  const store = await openStore(config.databaseUrl);
  try {
    const guarded = config.exposed && config.demoData !== 'asked';
    if (guarded) {
      const published = await publishedDemoLogins(store.db);
      if (published.length) {
        throw new ConfigError(
          `HOST=${config.host} makes this server reachable from other machines, and the store has demo accounts with the published password (${published.join(', ')}). Change their passwords, use another store, or set DEMO_DATA=1 to serve them anyway (a demo).`,
        );
      }
    }
    const empty = await isEmpty(store.db);
    if (!empty || config.demoData === 'off') return [];
    if (guarded) {
      process.stdout.write(
        `\nNot seeding demo data: HOST=${config.host} is reachable from other machines and the demo logins share a published password. Set DEMO_DATA=1 to seed it anyway.\n`,
      );
      return [];
    }
    const started = Date.now();
    const logins = await seedDemo({ store, secretKey: secretKeyOf(config) });
    logger.info({ ms: Date.now() - started }, 'demo data seeded');
    return logins;
  } finally {
    await store.close();
  }
}

/** Serves the API and the web app until SIGTERM or SIGINT; answers the port it listens on. */
async function serve(config: Config, logger: Logger): Promise<number> {
  const store = await openStore(config.databaseUrl);
  const ctx = createContext({ store, config, logger, secretKey: secretKeyOf(config) });
  const staticDir = path.join(root, 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html')) && !cluster.isWorker)
    logger.warn('web app not built (run npm run build); serving the API only');
  const server = createHttpServer(createApp(ctx, { staticDir }), config.connections).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'listening');

  startBackground(ctx, localUrl(config.host, port));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Dialer event streams end now, so that closing the server waits only for requests in flight.
    void Promise.all([closed, stopBackground(ctx)])
      .then(() => store.close())
      .then(
        () => logger.info('store closed; bye'),
        (error: unknown) => logger.error({ err: error }, 'shutdown did not finish cleanly'),
      )
      .finally(() => {
        clearTimeout(force);
        process.exit(0);
      });
    logger.info({ signal }, 'shutting down: no new connections, finishing requests');
  };
  onStopRequest(shutdown);
  return port;
}

/**
 * Starts the workers and keeps them running: one that dies is replaced, unless they keep dying (then the
 * primary gives up, as it does when a worker fails before it ever listened). A signal is passed on to every
 * worker; the primary exits once they all have.
 */
/** A worker reads the primary's clock as it starts (a set CLOCK_START goes on from where the primary's clock is). */
function forkWorker(config: Config) {
  return cluster.fork(config.clockStart ? { CLOCK_START: currentDate().toISOString() } : {});
}

function supervise(config: Config, logger: Logger, logins: DemoLogin[]) {
  let stopping = false;
  let started = false;
  let listening = 0;
  const restarts: number[] = [];
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    // A worker that outlives its grace period (stuck on a failed write, say) is ended, so the primary always exits.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS + WORKER_EXIT_MARGIN_MS).unref();
    logger.info({ signal }, 'stopping workers');
  };
  const giveUp = (reason: string) => {
    logger.error(reason);
    process.exitCode = 1;
    stop('SIGTERM');
  };

  cluster.on('listening', (_worker, address) => {
    if (started || ++listening < config.workers) return;
    started = true;
    logger.info({ workers: config.workers }, 'all workers listening');
    printBanner(config, address.port, logins);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      const now = Date.now();
      restarts.push(now);
      while (restarts[0]! < now - 60_000) restarts.shift();
      if (!started) giveUp(`a worker exited (code ${code}) before it could serve; stopping`);
      else if (restarts.length > RESTARTS_PER_MINUTE) giveUp(`workers keep exiting (${restarts.length} in a minute); stopping`);
      else {
        logger.error({ worker: worker.id, code, signal }, 'worker exited; starting another');
        forkWorker(config);
      }
    }
    // A worker that exits before its IPC channel closes is still listed in cluster.workers during its 'exit' (Node removes
    // it at whichever of the two comes last): counted as gone here, or a primary whose last worker died first would wait
    // for nothing, for ever (seen: a primary left running after its worker failed before it listened).
    if (stopping && Object.values(cluster.workers ?? {}).every((w) => !w || w.isDead())) {
      logger.info('all workers stopped; bye');
      process.exit(process.exitCode ?? 0);
    }
  });
  onStopRequest(stop);
  for (let i = 0; i < config.workers; i++) forkWorker(config);
}

/**
 * What stops the server: SIGTERM or SIGINT, and, when `npm start` (scripts/start.mjs) started it with an IPC channel,
 * that channel closing: the script is gone, even by SIGKILL, and nobody is left to stop us. A worker's own channel is
 * the cluster's, which Node watches itself.
 */
function onStopRequest(stop: (signal: NodeJS.Signals) => void) {
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (!cluster.isWorker && process.channel) process.on('disconnect', () => stop('SIGTERM'));
}

function printBanner(config: Config, port: number, logins: DemoLogin[]) {
  const lines = [`Ringbook is running at ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}`];
  if (logins.length) {
    lines.push('Demo logins (created now, on this first start):');
    for (const l of logins) lines.push(`  ${l.role.padEnd(8)} ${l.username.padEnd(10)} password: ${l.password}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
