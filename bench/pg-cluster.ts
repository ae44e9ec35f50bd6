/*
 * A throw-away PostgreSQL 15 cluster for the fault and standby runs: its own data directory under /tmp/<name>/, its
 * own port, run as the `postgres` user (PostgreSQL refuses to run as root), stopped and removed at the end of the
 * run, also when it fails. Never the system cluster at 5432.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** As the postgres user when this runs as root; as itself otherwise. */
const commandLine = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args]] : [path.join(BIN, command), args];
const asPostgres = (command: string, args: string[]) =>
  execFileSync(...commandLine(command, args), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** The same without blocking the event loop: load keeps running while a cluster restarts. */
const asPostgresLater = async (command: string, args: string[]) => (await promisify(execFile)(...commandLine(command, args))).stdout;

export type ShutdownMode = 'smart' | 'fast' | 'immediate';

export type Cluster = {
  port: number;
  dir: string;
  /** A URL of one of its databases, as the postgres superuser. */
  url(database?: string): string;
  start(): Promise<void>;
  stop(mode?: ShutdownMode): Promise<void>;
  /** `pg_ctl restart -m <mode>`, waiting until it accepts connections again. */
  restart(mode: ShutdownMode): Promise<void>;
  /** `pg_ctl promote`, waiting until the standby is a primary. */
  promote(): Promise<void>;
  /** Runs SQL on one of its databases. */
  query<R extends pg.QueryResultRow = any>(database: string, text: string, values?: unknown[]): Promise<R[]>;
  /** Stops it at once and removes its directory (never throws). */
  remove(): void;
};

/** The root under which a run's clusters live: /tmp/<name>/, owned by postgres. */
export function clusterRoot(name: string): string {
  const root = fs.mkdtempSync(path.join('/tmp', `${name}-`));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', root]);
  return root;
}

function cluster(dir: string, port: number): Cluster {
  const log = path.join(dir, 'server.log');
  const options = ['-D', dir, '-l', log, '-w', '-t', '120'];
  const ctl = async (...args: string[]) => void (await asPostgresLater('pg_ctl', [...options, ...args]));
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    start: () => ctl('start'),
    stop: (mode = 'fast') => ctl('stop', '-m', mode),
    restart: (mode) => ctl('restart', '-m', mode),
    promote: () => ctl('promote'),
    async query(database, text, values) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    remove() {
      try {
        asPostgres('pg_ctl', [...options, 'stop', '-m', 'immediate']);
      } catch {
        // not running
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new cluster in `root`, trust authentication on 127.0.0.1 only, started. `settings` go into postgresql.conf. */
export async function initCluster(root: string, name: string, port: number, settings: Record<string, string> = {}): Promise<Cluster> {
  const dir = path.join(root, name);
  asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-instructions']);
  const conf = {
    listen_addresses: `'127.0.0.1'`,
    port: String(port),
    unix_socket_directories: `'${dir}'`,
    max_connections: '200',
    ...settings,
  };
  fs.appendFileSync(
    path.join(dir, 'postgresql.conf'),
    Object.entries(conf)
      .map(([k, v]) => `${k} = ${v}\n`)
      .join(''),
  );
  fs.appendFileSync(path.join(dir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
  const c = cluster(dir, port);
  await c.start();
  return c;
}

/**
 * A streaming standby of `primary`, made with `pg_basebackup -R` (which writes primary_conninfo and standby.signal)
 * as `user`, listening on `port`, started.
 */
export async function standbyOf(primary: Cluster, root: string, name: string, port: number, user: string): Promise<Cluster> {
  const dir = path.join(root, name);
  asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', user, '-D', dir, '-R', '-X', 'stream', '-c', 'fast']);
  fs.appendFileSync(path.join(dir, 'postgresql.conf'), `port = ${port}\nunix_socket_directories = '${dir}'\n`);
  const c = cluster(dir, port);
  await c.start();
  return c;
}

/** Removes the clusters when the process ends by a signal too. */
export function removeOnExit(clusters: () => Cluster[]) {
  const removeAll = () => {
    for (const c of clusters()) c.remove();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      removeAll();
      process.exit(130);
    });
  }
  return removeAll;
}
