/*
 * npm run bench:export [-- --contacts 100000] [-- --database postgres://…]
 * The contacts export over HTTP: a fresh store loaded by the bench loader (bench/load.ts), the real server in its own
 * process (WORKERS=1, so one process holds whatever the export holds), and the vendor's export of the whole store
 * (GET /rest/1/contacts/export) read to its end. Prints rows/s and the server's peak resident memory before and after,
 * which stays flat however many rows the export writes (it streams chunks of 1,000; docs/api.md, "Export").
 */
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { openStore } from '../server/db/database.js';
import { loadAverage } from './dial-load.js';
import { peakRssMb, startServer } from './http.js';
import { createTeam, loadContacts } from './load.js';
import { postgresBenchStore, sqliteBenchStore } from './store.js';

const { values: args } = parseArgs({
  options: {
    contacts: { type: 'string', default: '100000' },
    members: { type: 'string', default: '10' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Reads the export to its end, counting its records (the loader writes no line breaks inside cells). */
async function readExport(url: string, token: string): Promise<{ rows: number; bytes: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/rest/1/contacts/export`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let records = 0;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.byteLength;
    for (const byte of next.value) if (byte === 0x0a) records++;
  }
  return { rows: records - 1, bytes, ms: performance.now() - started };
}

async function main() {
  const count = Number(args.contacts);
  const bench = args.database === undefined ? sqliteBenchStore() : await postgresBenchStore(args.database);
  log(`Export bench: ${count.toLocaleString('en-US')} contacts; store ${bench.where}`);
  try {
    const store = await openStore(bench.url);
    const team = await createTeam(store, bench.secretKey, Number(args.members));
    const loadMs = await loadContacts(store, team, count, log);
    await store.close();
    log(`Load: ${(loadMs / 1000).toFixed(1)} s`);
    const server = await startServer(bench, { ...bench.env, WORKERS: '1' });
    try {
      const before = peakRssMb(server.pid);
      const cpuBefore = server.cpuMs();
      const { rows, bytes, ms } = await readExport(server.url, personalToken(bench.secretKey, team.vendor));
      if (rows !== count) throw new Error(`the export wrote ${rows} rows of ${count}`);
      log(
        `Export: ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s: ` +
          `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s; server CPU ${((server.cpuMs() - cpuBefore) / 1000).toFixed(1)} s`,
      );
      log(
        `Server peak RSS: ${before.toFixed(0)} MB before the export, ${peakRssMb(server.pid).toFixed(0)} MB after; load average ${loadAverage()}`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await bench.remove(args.keep, log);
  }
}

await main();
