import { type ChildProcess, fork } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * `npm start`'s carrier: the simulated carrier in a child process of the server's primary, on a port of its own, one
 * for every worker. If it dies it is started again on the same port (calls it held end by the engine's wake-ups);
 * when the primary goes, its IPC channel closes and the carrier stops.
 */
export type CarrierChild = { url: string; stop(): Promise<void> };
export type CarrierChildOptions = {
  secret: string;
  port: number;
  timeScale: number;
  dataDir: string;
  logLevel: string;
  onExit: (code: number | null) => void;
};

/* Set in the built server (scripts/server-build.mjs): the carrier's own bundle. Run from the sources, it is not defined. */
declare const RINGBOOK_CARRIER_BUNDLE: string | undefined;

/** The carrier's entry, and how Node runs it: the bundle beside the built server's, or the TypeScript through tsx. */
const [MAIN, MAIN_ARGS] =
  typeof RINGBOOK_CARRIER_BUNDLE === 'string'
    ? [RINGBOOK_CARRIER_BUNDLE, ['--enable-source-maps']]
    : [path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts'), ['--import', 'tsx']];

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function spawnCarrier(options: CarrierChildOptions, port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(MAIN, [], {
    execArgv: MAIN_ARGS,
    env: {
      ...process.env,
      CARRIER_SECRET: options.secret,
      CARRIER_PORT: String(port),
      CARRIER_HOST: '127.0.0.1',
      CARRIER_TIME_SCALE: String(options.timeScale),
      CARRIER_DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel,
    },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { carrier?: string }) =>
      message.carrier ? resolve({ child, url: message.carrier }) : reject(new Error('carrier said nothing')),
    );
    child.once('exit', (code) => reject(new Error(`the carrier exited (code ${code}) before it listened`)));
  });
}

export async function startCarrierChild(options: CarrierChildOptions): Promise<CarrierChild> {
  const port = options.port || (await freePort());
  const first = await spawnCarrier(options, port);
  const { url } = first;
  let { child } = first;
  let stopping = false;
  const watch = (current: ChildProcess) =>
    current.once('exit', (code) => {
      if (stopping) return;
      options.onExit(code);
      void spawnCarrier(options, port).then(
        (next) => {
          child = next.child;
          watch(child);
        },
        () => options.onExit(null),
      );
    });
  watch(child);
  return {
    url,
    stop: () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}
