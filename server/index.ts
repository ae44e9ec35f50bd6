import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, createHttpServer } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import type { Context } from './context.js';
import { openStore, sqlitePath } from './db/database.js';
import { loadSecretKey } from './auth/secret-key.js';
import { createLogger } from './lib/logger.js';
import { seedDemo, type DemoLogin } from './seed/demo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const store = await openStore(config.databaseUrl);
  const ctx: Context = { store, config, logger, secretKey: loadSecretKey(config.secretKey, sqlitePath(config.databaseUrl)) };

  const empty = !(await store.db.selectFrom('organisations').select('id').limit(1).executeTakeFirst());
  let logins: DemoLogin[] = [];
  if (empty && config.demoData) {
    const started = Date.now();
    logins = await seedDemo(ctx);
    logger.info({ ms: Date.now() - started }, 'demo data seeded');
  }

  const staticDir = path.join(root, 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) logger.warn('web app not built (run npm run build); serving the API only');
  const server = createHttpServer(createApp(ctx, { staticDir })).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port }, 'listening');
  printBanner(config.publicUrl.replace(`:${config.port}`, `:${port}`), logins);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests');
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    server.close(async () => {
      clearTimeout(force);
      await store.close();
      logger.info('store closed; bye');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function printBanner(url: string, logins: DemoLogin[]) {
  const lines = [`Ringbook is running at ${url}`];
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
