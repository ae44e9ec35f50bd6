/*
 * npx tsx bench/writes.ts load --dir D [--contacts N] [--database postgres://…]
 * npx tsx bench/writes.ts run --dir D [--roots a,b] [--rounds R] [--duration S] [--warmup S] [--only update,create,…]
 * The write scenarios (create, update, phone add, tag add) on a kept store, loaded once (`load`, which writes the
 * team beside the store), then run in turns against the servers of one or more checkouts (`--roots`, the first the
 * baseline), round after round, so that each version meets the same machine: the interleaved comparison the
 * figures in docs/performance.md ("Writes") come from. Prints req/s, p50/p99 and the server's CPU per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { personalToken } from '../server/auth/tokens.js';
import { openStore } from '../server/db/database.js';
import { loadSecretKey } from '../server/auth/secret-key.js';
import { loadAverage } from './dial-load.js';
import { runScenario, type Scenario, type ScenarioResult, startServer } from './http.js';
import { createTeam, loadContacts, ownerIndexOf, type Team } from './load.js';
import { postgresBenchStore } from './store.js';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    contacts: { type: 'string', default: '100000' },
    members: { type: 'string', default: '10' },
    database: { type: 'string' },
    roots: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string', default: 'create,update,phone-add,tag-add' },
  },
});
const log = (line: string) => process.stdout.write(`${line}\n`);
const dir = path.resolve(args.dir ?? '');
const randomInt = (max: number) => Math.floor(Math.random() * max);

type Saved = { url: string; env: NodeJS.ProcessEnv; secretKey: string; team: Team; contacts: number };

async function load() {
  fs.mkdirSync(dir, { recursive: true });
  const contacts = Number(args.contacts);
  let url: string;
  let env: NodeJS.ProcessEnv = {};
  let secretKey: Buffer;
  if (args.database) {
    const bench = await postgresBenchStore(args.database);
    ({ url, env, secretKey } = bench);
  } else {
    const file = path.join(dir, 'bench.db');
    url = `sqlite:${file}`;
    secretKey = loadSecretKey(undefined, file);
  }
  const store = await openStore(url);
  const team = await createTeam(store, secretKey, Number(args.members));
  const ms = await loadContacts(store, team, contacts, log);
  await store.close();
  const saved: Saved = { url, env, secretKey: secretKey.toString('base64'), team, contacts };
  fs.writeFileSync(path.join(dir, 'team.json'), JSON.stringify(saved));
  log(`Loaded ${contacts} contacts in ${(ms / 1000).toFixed(1)} s into ${url}`);
}

function scenarios(saved: Saved, token: string): Scenario[] {
  const m = saved.team.members.length;
  const owned = Math.floor((saved.contacts - 1) / m) + 1;
  const randomOwnedId = () => 1 + ownerIndexOf(1, m) + randomInt(owned) * m;
  const tag = `${process.pid}`;
  let n = 0;
  return [
    {
      name: 'create',
      token,
      method: 'POST',
      next: () => {
        const i = n++;
        const phone = `646${200 + (Math.floor(i / 10_000) % 800)}${String(i % 10_000).padStart(4, '0')}`;
        const body = { first_name: 'Bench', last_name: `Created ${i}`, email: `w-${tag}-${i}@bench.example.com`, phone, phone_type: 3 };
        return { path: '/rest/1/contacts', body: JSON.stringify(body) };
      },
    },
    {
      name: 'update',
      token,
      method: 'PUT',
      next: () => ({ path: `/rest/1/contacts/${randomOwnedId()}`, body: JSON.stringify({ first_name: `Updated ${n++}` }) }),
    },
    {
      name: 'phone-add',
      token,
      method: 'POST',
      next: () => ({
        path: `/rest/1/contacts/${randomOwnedId()}/phones`,
        body: JSON.stringify({ phone_number: `657${String((process.pid % 100) * 100_000 + (n++ % 100_000)).padStart(7, '0')}`, type: 3 }),
      }),
    },
    {
      name: 'tag-add',
      token,
      method: 'POST',
      next: () => ({ path: `/rest/1/contacts/${randomOwnedId()}/tags`, body: JSON.stringify({ title: `Bench ${randomInt(50)}` }) }),
    },
  ];
}

async function run() {
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'team.json'), 'utf8')) as Saved;
  const token = personalToken(Buffer.from(saved.secretKey, 'base64'), saved.team.members[0]!);
  const wanted = args.only.split(',');
  const runs = scenarios(saved, token).filter((s) => wanted.includes(s.name));
  const roots = args.roots.split(',').map((r) => path.resolve(r));
  const opts = { duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };
  const results = new Map<string, ScenarioResult[]>();
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const root of roots) {
      process.env.BENCH_SERVER_ROOT = root;
      const server = await startServer({ url: saved.url, env: saved.env });
      try {
        for (const scenario of runs) {
          const r = await runScenario(server, scenario, opts);
          const key = `${scenario.name} ${root}`;
          results.set(key, [...(results.get(key) ?? []), r]);
          log(
            `round ${round} ${scenario.name.padEnd(10)} ${path.basename(root).padEnd(12)} ${r.perSecond.toFixed(0).padStart(6)} req/s ` +
              `p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} cpu ${r.cpuPerRequest.toFixed(0)} us/req non2xx ${r.non2xx} err ${r.errors} load ${r.load}` +
              (r.samples[0] ? ` ${r.samples[0]}` : ''),
          );
        }
      } finally {
        await server.stop();
      }
    }
  }
  log(`\nsummary (median of ${args.rounds} rounds, [min-max]); load ${loadAverage()}`);
  for (const [key, rs] of results) {
    const per = rs.map((r) => r.perSecond).sort((a, b) => a - b);
    const cpu = rs.map((r) => r.cpuPerRequest).sort((a, b) => a - b);
    const mid = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
    log(
      `${key.padEnd(50)} ${mid(per).toFixed(0).padStart(6)} req/s [${per[0]!.toFixed(0)}-${per.at(-1)!.toFixed(0)}]  cpu ${mid(cpu).toFixed(0)} us/req [${cpu[0]!.toFixed(0)}-${cpu.at(-1)!.toFixed(0)}]`,
    );
  }
}

if (positionals[0] === 'load') await load();
else if (positionals[0] === 'run') await run();
else throw new Error('bench/writes.ts: load or run');
