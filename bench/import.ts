/*
 * npm run bench:import [-- --contacts 100000 --rows 200000] [-- --database postgres://…]
 * The CSV import over HTTP: a fresh store of N contacts loaded by the bench loader (bench/load.ts), a messy R-row file
 * written to disk (semicolons, Windows-1252, quoted line breaks, rows with too many fields or a bad e-mail, duplicates
 * of stored contacts and of earlier rows), the real server in its own process (WORKERS=1, so one process holds whatever
 * the import holds), the file uploaded as a stream and run as a job. Prints rows/s of the upload and of the run, the
 * server's peak resident memory, and the contacts list's p50/p99 at 10 connections (and a contact's record, as the
 * dialer reads it) measured while the import runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { openStore } from '../server/db/database.js';
import { loadAverage } from './dial-load.js';
import { peakRssMb, runScenario, startServer } from './http.js';
import { createTeam, identityOf, loadContacts } from './load.js';
import { postgresBenchStore, sqliteBenchStore } from './store.js';

const { values: args } = parseArgs({
  options: {
    contacts: { type: 'string', default: '100000' },
    rows: { type: 'string', default: '200000' },
    members: { type: 'string', default: '10' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
    // No list or record requests while the run goes: the run alone (a profile of it: BENCH_CPU_PROF=<dir>).
    'no-reads': { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Windows-1252 bytes of text that has only Latin-1 letters and the euro sign. */
const win1252 = (text: string) => Buffer.from(text.replace(/€/g, '\x80'), 'latin1');

const FIRST = ['Renée', 'Jürgen', 'Zoë', 'Ana', 'José', 'Björn', 'Chloé', 'Mia', 'Noël', 'Sam'];
const LAST = ['Dupré', 'Ünal', 'Müller', 'García', 'O"Brien', 'Søren', 'Lefèvre', 'Nguyen', 'Smith', 'Kowalski'];
const CITIES = ['Lyon', 'Köln', 'São Paulo', 'Zürich', 'Chicago'];

/** Row i of the file: mostly new people; every 50th a stored contact (by e-mail), every 97th an earlier row again, a few refused. */
function row(i: number, contacts: number): string {
  const q = (s: string) => (/[;"\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[(i * 7) % LAST.length]!;
  let email = `import.${i}@bench.example.org`;
  let phone = `6${String(100_000_000 + i).slice(-9)}`;
  if (i % 50 === 0 && contacts > 0) email = identityOf(1 + ((i * 31) % contacts)).email;
  if (i % 97 === 0 && i > 97) {
    email = `import.${i - 97}@bench.example.org`;
    phone = `6${String(100_000_000 + i - 97).slice(-9)}`;
  }
  if (i % 331 === 0) email = 'not an e-mail';
  const note = i % 5 === 0 ? q(`Met at the fair;\nprice ${i % 100} €`) : '';
  const cells = [q(first), q(last), email, phone, CITIES[i % CITIES.length]!, i % 3 ? q('Leads; Fair') : 'Fair', note];
  if (i % 211 === 0) cells.push('extra', 'fields');
  return cells.join(';');
}

async function writeFile(file: string, rows: number, contacts: number) {
  const out = fs.createWriteStream(file);
  out.write(win1252('Prénom;Nom;E-mail;Téléphone;Ville;Tags;Notes\r\n'));
  for (let i = 1; i <= rows; i++)
    if (!out.write(win1252(`${row(i, contacts)}\r\n`))) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

const MAPPING = {
  columns: [
    { index: 0, field: 'first_name' },
    { index: 1, field: 'last_name' },
    { index: 2, field: 'email' },
    { index: 3, field: 'phone', phone_type: 'mobile' },
    { index: 4, field: 'address.city' },
    { index: 5, field: 'tags' },
    { index: 6, field: 'notes' },
  ],
};

async function main() {
  const count = Number(args.contacts);
  const rows = Number(args.rows);
  const bench = args.database === undefined ? sqliteBenchStore() : await postgresBenchStore(args.database);
  log(`Import bench: ${fmt(rows)} rows into ${fmt(count)} contacts; store ${bench.where}; ${os.cpus().length} cores`);
  const file = path.join(os.tmpdir(), `ringbook-import-bench-${process.pid}.csv`);
  try {
    const store = await openStore(bench.url);
    const team = await createTeam(store, bench.secretKey, Number(args.members));
    const loadMs = await loadContacts(store, team, count, log);
    await store.close();
    log(`Load: ${(loadMs / 1000).toFixed(1)} s`);
    await writeFile(file, rows, count);
    log(`File: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
    const server = await startServer(bench, {
      ...bench.env,
      WORKERS: '1',
      IMPORT_MAX_BYTES: String(500 * 1024 * 1024),
      REQUEST_TIMEOUT_SECONDS: '3600',
    });
    try {
      await measure(server, personalToken(bench.secretKey, team.vendor), file, rows);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(file, { force: true });
    await bench.remove(args.keep, log);
  }
}

async function measure(server: Awaited<ReturnType<typeof startServer>>, token: string, file: string, rows: number) {
  const auth = { authorization: `Bearer ${token}` };
  const rssBefore = peakRssMb(server.pid);
  let started = performance.now();
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream;
  const uploaded = await fetch(`${server.url}/rest/1/imports?filename=bench.csv`, {
    method: 'POST',
    headers: auth,
    body,
    duplex: 'half',
  } as RequestInit);
  const upload = (await uploaded.json()) as { import: { id: number; row_count: number; encoding: string; delimiter: string } };
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${JSON.stringify(upload)}`);
  const uploadS = (performance.now() - started) / 1000;
  log(
    `Upload: ${fmt(upload.import.row_count)} rows (${upload.import.encoding}, "${upload.import.delimiter}") in ${uploadS.toFixed(1)} s: ${fmt(upload.import.row_count / uploadS)} rows/s; peak RSS ${peakRssMb(server.pid).toFixed(0)} MB (${rssBefore.toFixed(0)} before)`,
  );
  const id = upload.import.id;
  if (!args['no-reads']) {
    const idle = await runScenario(
      server,
      { name: 'list (idle)', token, next: () => ({ path: '/rest/1/contacts?page_size=25' }) },
      { duration: 5, connections: 10, warmup: 2 },
    );
    log(
      `List before the run, 10 connections: p50 ${idle.p50.toFixed(1)} ms, p99 ${idle.p99.toFixed(1)} ms, ${fmt(idle.perSecond)} req/s; load average ${loadAverage()}`,
    );
  }
  started = performance.now();
  const run = await fetch(`${server.url}/rest/1/imports/${id}/run`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ mapping: MAPPING, duplicates: 'update', dry_run: false }),
  });
  if (run.status !== 202) throw new Error(`run answered ${run.status}: ${await run.text()}`);
  let done = false;
  const state = async () => {
    // A kept-alive connection the server closed as it was reused answers ECONNRESET: ask again.
    for (let attempt = 0; ; attempt++) {
      try {
        const reply = await fetch(`${server.url}/rest/1/imports/${id}`, { headers: auth });
        return ((await reply.json()) as { import: { status: string; counts: object; rows_done: number } }).import;
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
  };
  const finished = (async () => {
    for (;;) {
      const now = await state();
      if (!['queued', 'running'].includes(now.status)) return { ...now, seconds: (performance.now() - started) / 1000 };
      await new Promise((r) => setTimeout(r, 100));
    }
  })().finally(() => (done = true));
  finished.catch(() => undefined);
  const during = [];
  if (args['no-reads']) await finished;
  while (!done) {
    let n = 0;
    const list = await runScenario(
      server,
      { name: 'list', token, next: () => ({ path: '/rest/1/contacts?page_size=25' }) },
      { duration: 3, connections: 10, warmup: 0 },
    );
    const record = await runScenario(
      server,
      { name: 'record', token, next: () => ({ path: `/rest/1/contacts/${1 + (n++ % 1000)}` }) },
      { duration: 2, connections: 2, warmup: 0 },
    );
    if (!done) during.push({ list, record });
  }
  const result = await finished;
  log(
    `Run: ${fmt(rows)} rows in ${result.seconds.toFixed(1)} s: ${fmt(rows / result.seconds)} rows/s; ${result.status}, counts ${JSON.stringify(result.counts)}`,
  );
  log(`Server peak RSS after the run: ${peakRssMb(server.pid).toFixed(0)} MB; load average ${loadAverage()}`);
  for (const [i, { list, record }] of during.entries())
    log(
      `  while running (${i + 1}): list p50 ${list.p50.toFixed(1)} ms p99 ${list.p99.toFixed(1)} ms (${fmt(list.perSecond)} req/s, non-2xx ${list.non2xx}); a contact's record p99 ${record.p99.toFixed(1)} ms`,
    );
}

await main();
