/*
 * npm run demo:standby
 * A streaming standby, promoted (docs/standby.md shows the same steps for an operator): a throw-away primary (port
 * 55441) and a standby made from it with `pg_basebackup -R` (port 55442), both under /tmp/standby-demo-*. Ringbook on the
 * primary (port 4622) signs a member in and writes contacts; the standby is shown replaying them. Then the primary is
 * stopped (a request to the server meanwhile answers 503 with Retry-After), the standby promoted, and Ringbook started
 * with DATABASE_URL at it (port 4623, same SECRET_KEY): the member signs in, lists the contacts written before, and
 * writes new ones. Both clusters are removed at the end, also on failure.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { personalToken } from '../server/auth/tokens.js';
import { type ServerProcess, startServerProcess, type StoreFolder, vendorIn } from '../server/test/process.js';
import { type Cluster, clusterRoot, initCluster, removeOnExit, standbyOf } from './pg-cluster.js';

const PRIMARY_PORT = 55441;
const STANDBY_PORT = 55442;
const APP_PORTS = [4622, 4623];
const CONTACTS = 50;
const USERNAME = 'standby';
const PASSWORD = 'a long password for the standby demo';
/** How long the standby may take to replay what the primary committed (it is usually a few milliseconds). */
const REPLAY_LIMIT_MS = 30_000;
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Reply = { status: number; headers: Headers; body: any };

async function call(
  url: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(url + path, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) };
}

/** Signs in as a browser does (`POST /auth/login`); answers the headers that carry the session. */
async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ringbook-request': '1' },
    body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`signing in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c?.startsWith('rb_session='));
  if (!cookie) throw new Error('signing in set no session cookie');
  return { cookie, 'x-ringbook-request': '1' };
}

async function createContacts(url: string, headers: Record<string, string>, prefix: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const reply = await call(url, '/rest/1/contacts', {
      method: 'POST',
      headers,
      body: { first_name: `${prefix}${i}`, last_name: 'Standby', allow_duplicates: 1 },
    });
    if (reply.status !== 201) throw new Error(`creating a contact answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    ids.push(Number(reply.body.contacts.contacts.contact_user_id));
  }
  return ids;
}

/** Every contact the member can see, page by page. */
async function listContacts(url: string, headers: Record<string, string>): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const reply = await call(url, `/rest/1/contacts?page_size=100&page=${page}`, { headers });
    if (reply.status !== 200) throw new Error(`listing contacts answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    const rows: { contact_user_id: string }[] = reply.body.contacts.contacts;
    ids.push(...rows.map((r) => Number(r.contact_user_id)));
    if (rows.length < 100) return ids;
  }
}

async function main() {
  const root = clusterRoot('standby-demo');
  const clusters: Cluster[] = [];
  const servers: ServerProcess[] = [];
  const removeAll = removeOnExit(() => clusters);
  try {
    log(`1. primary cluster on port ${PRIMARY_PORT} (${root}/primary): wal_level = replica, max_wal_senders = 10`);
    const primary = await initCluster(root, 'primary', PRIMARY_PORT, {
      wal_level: 'replica',
      max_wal_senders: '10',
      wal_keep_size: `'256MB'`,
    });
    clusters.push(primary);
    await primary.query('postgres', `create role replicator with replication login password 'demo-only'`);
    await primary.query('postgres', 'create database ringbook');
    log('   replication role "replicator" created; database "ringbook" created');

    log(`2. standby: pg_basebackup -R -X stream from the primary into ${root}/standby, started on port ${STANDBY_PORT}`);
    const standby = await standbyOf(primary, root, 'standby', STANDBY_PORT, 'replicator');
    clusters.push(standby);
    const [replication] = await primary.query('postgres', `select application_name, state, sync_state from pg_stat_replication`);
    const [recovering] = await standby.query('postgres', 'select pg_is_in_recovery() as r');
    log(`   primary's pg_stat_replication: ${JSON.stringify(replication)}; standby in recovery: ${recovering.r}`);

    log(`3. Ringbook on the primary (port ${APP_PORTS[0]}): a member signs in and creates ${CONTACTS} contacts`);
    const folder: StoreFolder = {
      dir: root,
      databaseUrl: primary.url('ringbook'),
      secretKey: crypto.randomBytes(32).toString('base64'),
      remove: async () => {},
    };
    const member = await vendorIn(folder, USERNAME, PASSWORD);
    const env = { WORKERS: '2', LOG_LEVEL: 'error', TRANSCRIBER: 'none' };
    servers.push(await startServerProcess(folder, { ...env, PORT: String(APP_PORTS[0]) }));
    const onPrimary = await signIn(servers[0]!.url);
    const before = await createContacts(servers[0]!.url, onPrimary, 'Before', CONTACTS);
    log(`   created contacts ${before[0]}-${before.at(-1)} (201 each)`);

    log('4. the standby replays them');
    const replayStarted = Date.now();
    let replayed = 0;
    while (replayed < CONTACTS) {
      if (Date.now() - replayStarted > REPLAY_LIMIT_MS)
        throw new Error(`the standby replayed ${replayed} of ${CONTACTS} contacts in ${REPLAY_LIMIT_MS / 1000} s`);
      replayed = Number((await standby.query('ringbook', 'select count(*) as n from contacts where id = any($1::int[])', [before]))[0].n);
      if (replayed < CONTACTS) await sleep(20);
    }
    const [lsn] = await standby.query('postgres', 'select pg_last_wal_receive_lsn() as received, pg_last_wal_replay_lsn() as replayed');
    log(`   all ${CONTACTS} on the standby within ${Date.now() - replayStarted} ms (received ${lsn.received}, replayed ${lsn.replayed})`);

    log('5. the primary stops (pg_ctl stop -m fast); Ringbook on it answers meanwhile:');
    await primary.stop('fast');
    const meanwhile = await call(servers[0]!.url, '/rest/1/contacts', {
      method: 'POST',
      headers: onPrimary,
      body: { first_name: 'During', allow_duplicates: 1 },
    });
    log(
      `   POST /rest/1/contacts -> ${meanwhile.status}, Retry-After: ${meanwhile.headers.get('retry-after')}, ${JSON.stringify(meanwhile.body)}`,
    );
    await servers[0]!.stop('SIGTERM');

    log('6. pg_ctl promote on the standby');
    await standby.promote();
    const [promoted] = await standby.query('postgres', 'select pg_is_in_recovery() as r');
    log(`   standby in recovery: ${promoted.r} (a primary now)`);

    log(`7. Ringbook with DATABASE_URL at the promoted standby (port ${APP_PORTS[1]}, the same SECRET_KEY)`);
    servers.push(await startServerProcess({ ...folder, databaseUrl: standby.url('ringbook') }, { ...env, PORT: String(APP_PORTS[1]) }));
    const onStandby = await signIn(servers[1]!.url);
    log('   signed in (POST /auth/login -> 200)');
    const listed = await listContacts(servers[1]!.url, onStandby);
    const missing = before.filter((id) => !listed.includes(id));
    log(`   listed ${listed.length} contacts; of the ${CONTACTS} written before, missing: ${missing.length}`);
    const after = await createContacts(servers[1]!.url, onStandby, 'After', 5);
    const token = personalToken(Buffer.from(folder.secretKey, 'utf8'), member);
    const fetched = await call(servers[1]!.url, `/rest/1/contacts/${after[0]}`, { headers: { authorization: `Bearer ${token}` } });
    log(
      `   created contacts ${after.join(', ')} (201 each); GET /rest/1/contacts/${after[0]} with the member's API token -> ${fetched.status}`,
    );
    const relisted = await listContacts(servers[1]!.url, onStandby);
    log(`   listed again: ${relisted.length} contacts`);
    const ok = missing.length === 0 && relisted.length === CONTACTS + 5 && meanwhile.status === 503 && fetched.status === 200;
    log(`\n${ok ? 'OK' : 'NOT OK'}: the promoted standby serves Ringbook with every contact written on the primary`);
    if (!ok) process.exitCode = 1;
  } finally {
    for (const s of servers) await s.stop('SIGKILL');
    removeAll();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
