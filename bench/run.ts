/*
 * npm run bench [-- --contacts N --members M --duration S --warmup S --connections C --keep] [--database postgres://…]
 *               [--only dialer|calls|contacts|search|floor] [--floor-rounds R] [--floor-scenarios list,get] [--creations N --dial-sessions N --dial-contacts N]
 *               [--call-sessions N --call-contacts N] [--scenarios list,create,…]
 * Loads a fresh store, runs the real server against it with autocannon, then times the same list query on
 * the store directly, so the HTTP overhead can be told apart from the query's own cost. Last come the dialer's
 * benchmarks (bench/dialer.ts); `--only dialer` loads the store and runs those alone (and stops). Then the calls' recordings and
 * transcripts (bench/call-media.ts, on stores of their own; `--only calls` runs them alone) and the transcription
 * engine's own speed (bench/transcription.ts). `--only contacts` stops after the contacts' scenarios; `--only search`
 * runs their two searches alone. After the contacts' scenarios, the floor (bench/floor.ts): the five reads against a
 * bare node:http server answering Ringbook's own bytes, in turns, and the ratios; `--only floor` runs it alone.
 * `--database postgres://…` runs the contacts' and the dialer's parts on a database of
 * its own created on that PostgreSQL server (bench/store.ts), dropped after the run unless `--keep`; the calls' part
 * makes a database of its own on it for each of its two runs.
 */
import { parseArgs } from 'node:util';
import type { AuthContext } from '../server/auth/access.js';
import { personalToken } from '../server/auth/tokens.js';
import { loadConfig } from '../server/config.js';
import { type ListContactsQuery, listContactsQuery } from '../server/contracts/contacts.js';
import { openStore } from '../server/db/database.js';
import { RecordCache } from '../server/lib/record-cache.js';
import { listContacts as listContactsPage } from '../server/modules/contacts/contact-list.repository.js';
import { listContacts } from '../server/modules/contacts/contacts.service.js';
import { runCallMediaBench } from './call-media.js';
import { runCatalogScenarios } from './catalog.js';
import { runDialerBench } from './dialer.js';
import { loadAverage } from './dial-load.js';
import { percentile, runScenario, type Scenario, type ScenarioResult, startServer } from './http.js';
import { addReps, createTeam, folderIndexOf, identityOf, loadContacts, ownerIndexOf, tagContacts, type Team } from './load.js';
import { type BenchStore, postgresBenchStore, sqliteBenchStore } from './store.js';
import { runTranscriptionBench } from './transcription.js';
import { runFloor } from './floor.js';

const { values: args } = parseArgs({
  options: {
    contacts: { type: 'string', default: '100000' },
    members: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
    'floor-rounds': { type: 'string', default: '2' },
    'floor-scenarios': { type: 'string' },
    scenarios: { type: 'string' },
    database: { type: 'string' },
    creations: { type: 'string', default: '30' },
    'dial-sessions': { type: 'string', default: '100' },
    'dial-contacts': { type: 'string', default: '40' },
    'call-sessions': { type: 'string', default: '20' },
    'call-contacts': { type: 'string', default: '5' },
  },
});
if (args.only !== undefined && !['dialer', 'calls', 'contacts', 'search', 'floor'].includes(args.only)) {
  throw new Error(`--only knows five parts, dialer, calls, contacts, search and floor, not '${args.only}'.`);
}
/** The contacts' scenarios alone (with the catalog's and the store's), or their two searches alone. */
const contactsOnly = args.only === 'contacts' || args.only === 'search' || args.only === 'floor';
const opts = {
  contacts: Number(args.contacts),
  members: Number(args.members),
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  connections: Number(args.connections),
};
const LIST_PAGES = 20;
/** Titles the tag-add scenario picks from: most adds give a contact a tag it does not hold yet. */
const TAG_TITLES = 50;
/** Contacts holding the tag the catalog scenarios rename and delete. */
const TAG_HOLDERS = 100_000;
const STORE_ITERATIONS = 2_000;
const log = (line: string) => process.stdout.write(`${line}\n`);
const ms = (n: number) => n.toFixed(2);
const randomInt = (max: number) => Math.floor(Math.random() * max);

/** What the scenarios need to know about one member's contacts, derived from how the loader assigns them. */
function plan(team: Team) {
  const member = team.members[0]!;
  const m = team.members.length;
  const ownedIds = (k: number) => 1 + ownerIndexOf(1, m) + k * m;
  const owned = Math.floor((opts.contacts - 1) / m) + 1;
  let k = 0;
  while (folderIndexOf(ownedIds(k), team.folderIds.length) === null) k++;
  const folderId = team.folderIds[folderIndexOf(ownedIds(k), team.folderIds.length)!]!;
  return { member, folderId, randomOwnedId: () => ownedIds(randomInt(owned)) };
}

function scenarios(team: Team, token: string): Scenario[] {
  const { folderId, randomOwnedId } = plan(team);
  let created = 0;
  let updated = 0;
  let phones = 0;
  return [
    {
      name: 'list',
      token,
      next: () => ({ path: `/rest/1/contacts?page_size=25&category_id=${folderId}&page=${1 + randomInt(LIST_PAGES)}` }),
    },
    { name: 'get', token, next: () => ({ path: `/rest/1/contacts/${randomOwnedId()}` }) },
    {
      name: 'list-by-name',
      token,
      next: () => ({ path: `/rest/1/contacts?page_size=25&sort_by=last_name&sort_order=ASC&page=${1 + randomInt(LIST_PAGES)}` }),
    },
    {
      // A name as people type it: a last name, "first last" or "last first", or the start of a last name (all common:
      // each matches about 1 in 13 of the member's contacts, so the page and its total come from many matches).
      name: 'search-name',
      token,
      next: () => {
        const { first, last } = identityOf(randomOwnedId());
        const words = [last, `${first} ${last}`, `${last} ${first}`, last.slice(0, 4)];
        return { path: `/rest/1/contacts?page_size=25&search=${encodeURIComponent(words[randomInt(words.length)]!)}` };
      },
    },
    {
      // One contact's number or address, as people paste it: the last seven digits with a dash, the whole number with
      // its country code, or the local part of the e-mail address. Each matches one contact.
      name: 'search-number',
      token,
      next: () => {
        const { email, phone } = identityOf(randomOwnedId());
        const words = [`${phone.slice(3, 6)}-${phone.slice(6)}`, `1${phone}`, email.split('@')[0]!];
        return { path: `/rest/1/contacts?page_size=25&search=${encodeURIComponent(words[randomInt(words.length)]!)}` };
      },
    },
    {
      name: 'update',
      token,
      method: 'PUT',
      next: () => ({ path: `/rest/1/contacts/${randomOwnedId()}`, body: JSON.stringify({ first_name: `Updated ${updated++}` }) }),
    },
    {
      name: 'phone-add',
      token,
      method: 'POST',
      // Area code 657 is one neither the loader nor the create scenario uses: each number is new to its contact.
      next: () => ({
        path: `/rest/1/contacts/${randomOwnedId()}/phones`,
        body: JSON.stringify({ phone_number: `657${String(2_000_000 + phones++).padStart(7, '0')}`, type: 3 }),
      }),
    },
    {
      name: 'tag-add',
      token,
      method: 'POST',
      next: () => ({ path: `/rest/1/contacts/${randomOwnedId()}/tags`, body: JSON.stringify({ title: `Bench ${randomInt(TAG_TITLES)}` }) }),
    },
    {
      name: 'create',
      token,
      method: 'POST',
      next: () => {
        const n = created++;
        // Area code 646 is not one the loader uses, so a new number never matches a loaded contact.
        const phone = `646${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}`;
        const body = {
          first_name: 'Bench',
          last_name: `Created ${n}`,
          email: `bench-new-${process.pid}-${n}@bench.example.com`,
          phone,
          phone_type: 3,
        };
        return { path: '/rest/1/contacts', body: JSON.stringify(body) };
      },
    },
  ];
}

function printCatalog(r: Awaited<ReturnType<typeof runCatalogScenarios>>) {
  const held = r.holders.toLocaleString('en-US');
  const line = (what: string, ms: number, status: number) =>
    log(
      `  ${what.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(6)} s  HTTP ${status}  target < 2 s: ${ms < 2000 && status < 300 ? 'yes' : 'NO'}`,
    );
  log('');
  log(`Catalog changes, each one HTTP call, while list runs beside them (${opts.connections} connections); load ${loadAverage()}`);
  line(`rename a tag held by ${held} contacts`, r.renameMs, r.renameStatus);
  line(`delete a tag held by ${held} contacts`, r.deleteMs, r.deleteStatus);
  const l = r.list;
  log(
    `  list beside them: ${l.perSecond.toFixed(0)} req/s, p50 ${ms(l.p50)} ms, p99 ${ms(l.p99)} ms, non-2xx ${l.non2xx}, errors ${l.errors}  ` +
      `target p99 < 20 ms: ${l.p99 < 20 && !l.non2xx && !l.errors ? 'yes' : 'NO'}`,
  );
}

/**
 * The list scenario's query on the store itself, as the handler runs it: the page of ids and versions with its
 * total, then the records, built every time (no record cache) or taken from a warm one.
 */
async function timeStoreList(databaseUrl: string, team: Team) {
  const store = await openStore(databaseUrl);
  const { member, folderId } = plan(team);
  const auth: AuthContext = { member, via: 'bearer', scope: { kind: 'team', orgId: member.org_id, memberIds: [member.id] } };
  const context = (cacheSize: number) => ({ store, records: new RecordCache(cacheSize) });
  const query = () => listContactsQuery.parse({ page_size: '25', category_id: String(folderId), page: String(1 + randomInt(LIST_PAGES)) });
  const cold = context(0);
  const warm = context(LIST_PAGES * 25);
  const ways = {
    page: (q: ListContactsQuery) => listContactsPage(store.db, auth.scope, q),
    built: (q: ListContactsQuery) => listContacts(cold, auth, q),
    cached: (q: ListContactsQuery) => listContacts(warm, auth, q),
  };
  const took = { page: [] as number[], built: [] as number[], cached: [] as number[] };
  try {
    // Taken in turns, so that each way meets the same conditions.
    for (let i = -STORE_ITERATIONS / 4; i < STORE_ITERATIONS; i++) {
      for (const way of ['page', 'built', 'cached'] as const) {
        const q = query();
        const started = performance.now();
        await ways[way](q);
        if (i >= 0) took[way].push(performance.now() - started);
      }
    }
    for (const times of Object.values(took)) times.sort((a, b) => a - b);
    return took;
  } finally {
    await store.close();
  }
}

function printResults(results: ScenarioResult[]) {
  const update = results.find((r) => r.name === 'update')?.perSecond ?? 0;
  const targets: Record<string, [string, (r: ScenarioResult) => boolean]> = {
    list: ['p99 < 10 ms', (r) => r.p99 < 10],
    get: ['p99 < 5 ms', (r) => r.p99 < 5],
    'search-name': ['p99 < 20 ms', (r) => r.p99 < 20],
    'search-number': ['p99 < 20 ms', (r) => r.p99 < 20],
    create: ['>= 1000 req/s', (r) => r.perSecond >= 1000],
    'phone-add': ['>= update req/s', (r) => r.perSecond >= update],
    'tag-add': ['>= update req/s', (r) => r.perSecond >= update],
  };
  log('');
  log(
    `HTTP (${opts.connections} connections, ${opts.duration} s each after ${opts.warmup} s of warm-up; server with ${loadConfig().workers} workers)`,
  );
  log('scenario       requests    req/s   p50 ms   p99 ms  cpu us/req  non-2xx  errors  target           met  load');
  for (const r of results) {
    const [target, met] = targets[r.name] ?? ['', () => true];
    const ok = met(r) && r.non2xx === 0 && r.errors === 0;
    log(
      `${r.name.padEnd(12)} ${String(r.requests).padStart(10)} ${r.perSecond.toFixed(0).padStart(8)} ${ms(r.p50).padStart(8)} ${ms(r.p99).padStart(8)} ` +
        `${r.cpuPerRequest.toFixed(0).padStart(11)} ` +
        `${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}  ${target.padEnd(15)}  ${(ok ? (target ? 'yes' : '') : 'NO').padEnd(3)}  ${r.load}`,
    );
    for (const sample of r.samples) log(`    ${r.name} answered: ${sample}`);
  }
  log("list-by-name: a page of all the member's contacts sorted by last name (sort_by=last_name), pages 1-20");
  log("search-name: a last name, first and last in either order, or a last name's first four letters (many matches)");
  log("search-number: a contact's last seven digits, its number with country code, or its e-mail's local part (one match)");
  log('update: PUT first_name on a random contact of the member; phone-add, tag-add: POST a new phone, a tag (of 50 titles)');
  log("cpu us/req: CPU time of the server's processes per request (req/s here moves with the machine's other load)");
  log("load: the machine's load average over the last minute as the scenario ended (2 cores)");
  log('list-cold, get-cold: on a server keeping no records (RECORD_CACHE_SIZE=0): every record built for every request,');
  log('  as for contacts no process has served since they last changed');
}

async function main() {
  if (args.only !== 'calls') await contactsAndDialer();
  if (contactsOnly || args.only === 'dialer') return;
  await runCallMediaBench(
    {
      sessions: Number(args['call-sessions']),
      contacts: Number(args['call-contacts']),
      talkSeconds: 3,
      scale: 0.1,
      database: args.database,
    },
    log,
  );
  log('');
  log('Transcription engine alone (bench/transcription.ts):');
  await runTranscriptionBench(log);
}

async function contactsAndDialer() {
  const bench = args.database === undefined ? sqliteBenchStore() : await postgresBenchStore(args.database);
  log(`Ringbook bench: ${opts.contacts.toLocaleString('en-US')} contacts over ${opts.members} members; store ${bench.where}`);
  try {
    const store = await openStore(bench.url);
    const team = await createTeam(store, bench.secretKey, opts.members);
    const loadMs = await loadContacts(store, team, opts.contacts, log);
    const dialing = contactsOnly ? [] : await addReps(store, bench.secretKey, team.vendor, Number(args['dial-sessions']), 'dialer');
    await store.close();
    log(
      `Load: ${(loadMs / 1000).toFixed(1)} s, ${Math.round(opts.contacts / (loadMs / 1000)).toLocaleString('en-US')} contacts/s, ` +
        `database ${((await bench.size()) / 1e6).toFixed(0)} MB; load average ${loadAverage()}`,
    );

    const token = personalToken(bench.secretKey, plan(team).member);
    if (args.only !== 'dialer') await runContactScenarios(bench, team, token);
    const dialer = {
      creations: Number(args.creations),
      sessions: Number(args['dial-sessions']),
      sessionContacts: Number(args['dial-contacts']),
    };
    const reps = dialing.map((rep) => personalToken(bench.secretKey, rep));
    if (!contactsOnly) await runDialerBench(bench, token, reps, dialer, log);
  } finally {
    await bench.remove(args.keep, log);
  }
}

async function runContactScenarios(bench: BenchStore, team: Team, token: string) {
  const [list, get, byName, searchName, searchNumber, update, phoneAdd, tagAdd, create] = scenarios(team, token) as Scenario[] as [
    Scenario,
    Scenario,
    Scenario,
    Scenario,
    Scenario,
    Scenario,
    Scenario,
    Scenario,
    Scenario,
  ];
  const results: ScenarioResult[] = [];
  const runOn = async (settings: NodeJS.ProcessEnv, runs: Scenario[]) => {
    const server = await startServer(bench, settings);
    try {
      for (const scenario of runs) {
        log(`  running ${scenario.name} ...`);
        results.push(await runScenario(server, scenario, opts));
      }
    } finally {
      await server.stop();
    }
  };
  if (args.only === 'search') {
    await runOn({}, [searchName, searchNumber]);
    printResults(results);
    return;
  }
  const floor = async () => {
    const server = await startServer(bench);
    const options = { duration: opts.duration, warmup: opts.warmup, rounds: Number(args['floor-rounds']), processes: loadConfig().workers };
    try {
      // --floor-scenarios list,get: only those reads beside their floor (the whole set takes some five minutes).
      const named = args['floor-scenarios']?.split(',');
      const reads = [list, get, byName, searchName, searchNumber].filter((s) => !named || named.includes(s.name));
      await runFloor(server, reads, { ...options, requests: 500 }, log);
    } finally {
      await server.stop();
    }
  };
  if (args.only === 'floor') return floor();
  // --scenarios list,create: only those, on one server, then their table (to profile one with BENCH_CPU_PROF).
  const warm = [list, get, byName, searchName, searchNumber, create, update, phoneAdd, tagAdd];
  if (args.scenarios) {
    const named = args.scenarios.split(',');
    await runOn(
      {},
      warm.filter((s) => named.includes(s.name)),
    );
    printResults(results);
    return;
  }
  await runOn({}, warm);
  await runOn({ RECORD_CACHE_SIZE: '0' }, [
    { ...list, name: 'list-cold' },
    { ...get, name: 'get-cold' },
  ]);
  printResults(results);
  await floor();

  const holders = Math.min(TAG_HOLDERS, opts.contacts);
  const tagStore = await openStore(bench.url);
  const tagId = await tagContacts(tagStore, team, holders).finally(() => tagStore.close());
  log(`  running rename and delete of a tag held by ${holders.toLocaleString('en-US')} contacts beside list ...`);
  printCatalog(await runCatalogScenarios(bench, list, personalToken(bench.secretKey, team.vendor), { id: tagId, holders }, opts));

  const onStore = await timeStoreList(bench.url, team);
  const httpP50 = results.find((r) => r.name === 'list')!.p50;
  const line = (label: string, took: number[]) =>
    log(`  ${label.padEnd(34)} p50 ${ms(percentile(took, 50))} ms   p99 ${ms(percentile(took, 99))} ms`);
  log('');
  log(`Store, same list query, ${STORE_ITERATIONS} iterations in-process after ${STORE_ITERATIONS / 4} unmeasured; load ${loadAverage()}`);
  line('page of ids and versions, total', onStore.page);
  line('+ records built (none cached)', onStore.built);
  line('+ records from a warm cache', onStore.cached);
  log(`  HTTP p50 / store p50 (warm cache)  ${(httpP50 / percentile(onStore.cached, 50)).toFixed(1)}x`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
