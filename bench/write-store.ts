/*
 * npx tsx bench/write-store.ts --dir D [--ops N] [--inflight C] [--only update,create,phone-add,tag-add] [--delay MS]
 * The write scenarios of bench/writes.ts called in-process on a kept store (bench/writes.ts load), `inflight` at once
 * so that group commit batches them as under HTTP load, and measured by what the machine's other load moves least:
 * the process's CPU time per write, the bytes it wrote (the WAL's pages: /proc/self/io wchar) and its write calls per
 * write, and its batches (commits, each one fsync of the WAL on SQLite). Run from two checkouts in turns to compare.
 * `--delay MS` (PostgreSQL): the store is reached through bench/delay-proxy.ts, each way MS ms later, as a database on
 * another machine is; the time of a write is then mostly its round trips.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../server/db/database.js';
import { addPhoneBody } from '../server/contracts/contact-details.js';
import { createContactBody, updateContactBody } from '../server/contracts/contacts.js';
import { createContact, updateContact } from '../server/modules/contacts/contacts.service.js';
import { addPoint } from '../server/modules/contact-details/contact-points.service.js';
import { PHONES } from '../server/modules/contact-details/point-kinds.js';
import { addContactTag } from '../server/modules/contact-details/contact-tags.service.js';
import { throughDelay } from './delay-proxy.js';
import { ownerIndexOf, type Team } from './load.js';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    ops: { type: 'string', default: '2000' },
    inflight: { type: 'string', default: '10' },
    only: { type: 'string', default: 'create,update,phone-add,tag-add' },
    delay: { type: 'string' },
  },
});
const dir = path.resolve(args.dir ?? '');
const saved = JSON.parse(fs.readFileSync(path.join(dir, 'team.json'), 'utf8')) as { url: string; team: Team; contacts: number };
const proxy = args.delay ? await throughDelay(saved.url, Number(args.delay)) : undefined;
const store = await openStore(proxy?.url ?? saved.url);
const member = saved.team.members[0]!;
const auth = { member, via: 'bearer' as const, scope: { kind: 'team' as const, orgId: member.org_id, memberIds: [member.id] } };
const m = saved.team.members.length;
const owned = Math.floor((saved.contacts - 1) / m) + 1;
const randomOwnedId = () => 1 + ownerIndexOf(1, m) + Math.floor(Math.random() * owned) * m;
const ctx = { store };
const tag = `${process.pid}`;
let n = 0;
const ops: Record<string, () => Promise<unknown>> = {
  create: () => {
    const i = n++;
    // A number of this run's own (the process id picks an exchange): a run after another creates no duplicates of its contacts.
    const phone = `647${200 + ((process.pid + Math.floor(i / 10_000)) % 800)}${String(i % 10_000).padStart(4, '0')}`;
    return createContact(
      ctx,
      auth,
      createContactBody.parse({
        first_name: 'Bench',
        last_name: `Store ${tag} ${i}`,
        email: `s-${tag}-${i}@bench.example.com`,
        phone,
        phone_type: 3,
      }),
    );
  },
  update: () => updateContact(ctx, auth, randomOwnedId(), updateContactBody.parse({ first_name: `Updated ${tag} ${n++}` })),
  'phone-add': () => {
    const { is_primary, ...entry } = addPhoneBody.parse({
      phone_number: `658${String((Number(tag) % 100) * 100_000 + (n++ % 100_000)).padStart(7, '0')}`,
      type: 3,
    });
    return addPoint(ctx, auth, PHONES, randomOwnedId(), entry, is_primary);
  },
  'tag-add': () => addContactTag(ctx, auth, randomOwnedId(), `Bench ${Math.floor(Math.random() * 50)}`),
};
const io = () => {
  const t = fs.readFileSync('/proc/self/io', 'utf8');
  const get = (k: string) => Number(new RegExp(`${k}: (\\d+)`).exec(t)![1]);
  return { wchar: get('wchar'), syscw: get('syscw') };
};
async function run(name: string, count: number) {
  const op = ops[name]!;
  let left = count;
  const worker = async () => {
    while (left-- > 0) await op();
  };
  const cpu = process.cpuUsage();
  const io0 = io();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Number(args.inflight) }, worker));
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const io1 = io();
  return {
    cpu: (used.user + used.system) / count,
    sys: used.system / count,
    wall: (wall * 1000) / count,
    kb: (io1.wchar - io0.wchar) / 1024 / count,
    writes: (io1.syscw - io0.syscw) / count,
  };
}
for (const name of args.only.split(',')) {
  await run(name, Math.max(100, Number(args.ops) / 10)); // warm-up
  const r = await run(name, Number(args.ops));
  process.stdout.write(
    `${path.basename(path.resolve('.')).padEnd(8)} ${name.padEnd(10)} cpu ${r.cpu.toFixed(0).padStart(5)} us/op (sys ${r.sys.toFixed(0)})  wall ${r.wall.toFixed(0).padStart(5)} us/op  written ${r.kb.toFixed(1).padStart(6)} KB/op  write calls ${r.writes.toFixed(1)}/op\n`,
  );
}
await store.close();
proxy?.stop();
