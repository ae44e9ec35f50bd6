// Where the tests find PostgreSQL: TEST_POSTGRES_URL when set; else a server at 127.0.0.1:5432 when one answers; else a
// throw-away cluster of its own, made with the server binaries under /usr/lib/postgresql and stopped by `stop()`.
// RINGBOOK_TEST_PG=cluster skips 5432 (to try the throw-away path on a machine that has a server there), and
// RINGBOOK_TEST_PG_PORT chooses the cluster's port (a free one by default).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const SYSTEM_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const BINARIES = '/usr/lib/postgresql';
const HOW_TO_GET_POSTGRES =
  'Set TEST_POSTGRES_URL to a server the tests may create databases on, start one at ' +
  `127.0.0.1:5432 (user postgres, trust auth), or install the server binaries (Debian: apt-get install postgresql) so the tests start one under ${BINARIES}.`;

/** @returns {Promise<{ url: string, where: string, stop(): void }>} the admin URL of a server the tests may use. */
export async function testPostgres() {
  if (process.env.TEST_POSTGRES_URL) {
    return { url: process.env.TEST_POSTGRES_URL, where: 'TEST_POSTGRES_URL', stop: () => {} };
  }
  if (process.env.RINGBOOK_TEST_PG !== 'cluster' && (await answers(SYSTEM_URL))) {
    return { url: SYSTEM_URL, where: 'the server at 127.0.0.1:5432', stop: () => {} };
  }
  return throwAwayCluster();
}

/** Runs `work` with a connection of its own to `url`, closed after it. */
export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const answers = (url) =>
  withClient(url, (c) => c.query('select 1')).then(
    () => true,
    () => false,
  );

/** The newest server binaries' folder, or undefined. */
function binaries() {
  if (!fs.existsSync(BINARIES)) return undefined;
  const versions = fs
    .readdirSync(BINARIES)
    .filter((v) => fs.existsSync(path.join(BINARIES, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] && path.join(BINARIES, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: root runs it as the postgres user (Debian's package makes it), else as nobody. */
function unprivileged() {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined, gid: undefined };
  const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (user.status === 0) {
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
    return { prefix: ['runuser', '-u', 'postgres', '--'], uid: Number(user.stdout), gid };
  }
  return { prefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'], uid: 65534, gid: 65534 };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function throwAwayCluster() {
  const bin = binaries();
  if (!bin) throw new Error(`No PostgreSQL for the tests. ${HOW_TO_GET_POSTGRES}`);
  const port = Number(process.env.RINGBOOK_TEST_PG_PORT) || (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringbook-pg-'));
  const data = path.join(dir, 'data');
  const { prefix, uid, gid } = unprivileged();
  if (uid !== undefined) fs.chownSync(dir, uid, gid);
  const spawn = (command, args) => {
    const [file, ...rest] = [...prefix, path.join(bin, command), ...args];
    return spawnSync(file, rest, { encoding: 'utf8', cwd: dir });
  };
  const run = (command, args) => {
    const result = spawn(command, args);
    if (result.status !== 0) {
      const log = path.join(dir, 'server.log');
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(
        `${command} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr}${tail}\n${HOW_TO_GET_POSTGRES}`,
      );
    }
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  // Nothing here must outlive a crash of the machine: durability settings off make the suite faster.
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off` +
    ' -c synchronous_commit=off -c full_page_writes=off';
  let started = false;
  const stop = () => {
    if (started) spawn('pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
    started = false;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', path.join(dir, 'server.log'), '-o', options]);
    started = true;
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, where: `a throw-away cluster at 127.0.0.1:${port} (${dir})`, stop };
}
