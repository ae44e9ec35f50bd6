/*
 * The simulated carrier as a process of its own: `npm start` runs one beside the server's workers, and
 * `npm run carrier` runs one alone for servers on several machines (CARRIER_URL and CARRIER_SECRET point them at it).
 *   CARRIER_SECRET      shared with the servers (required)
 *   CARRIER_PORT        default 3300; CARRIER_HOST default 127.0.0.1
 *   CARRIER_TIME_SCALE  multiplies every simulated duration (default 1)
 *   CARRIER_DATA_DIR    where recordings wait to be fetched (default a folder in the system's temporary directory)
 */
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { defaultRecorder } from './recorder.js';
import { createCarrierService } from './service.js';

const env = process.env;
const logger = pino({ level: env.LOG_LEVEL ?? 'info', base: { service: 'carrier' } });
const secret = env.CARRIER_SECRET;
if (!secret || secret.length < 32) {
  process.stderr.write('CARRIER_SECRET must be set to the secret the servers share with the carrier (at least 32 characters).\n');
  process.exit(1);
}
const timeScale = Number(env.CARRIER_TIME_SCALE ?? 1);
const service = createCarrierService({
  secret,
  timeScale,
  recordingsDir: env.CARRIER_DATA_DIR ?? path.join(os.tmpdir(), `ringbook-carrier-${process.pid}`),
  recorder: defaultRecorder(),
  log: (message, detail) => logger.warn(detail, message),
});
service.server.listen(Number(env.CARRIER_PORT ?? 3300), env.CARRIER_HOST ?? '127.0.0.1', () => {
  const { address, port } = service.server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  logger.info({ url, timeScale }, 'carrier listening');
  process.send?.({ carrier: url });
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void service.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Started by a server (npm start): its end is ours.
if (process.channel) process.on('disconnect', stop);
