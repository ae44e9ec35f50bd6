/*
 * Demo data for a first start: a small sales team and about 2,000 contacts written through the same
 * service the API uses, so every derived row (phones, search terms, tags, custom fields, history) is real.
 */
import { scopeFor } from '../auth/access.js';
import { findMembersByUsername } from '../auth/auth.repository.js';
import { verifyPassword } from '../auth/passwords.js';
import type { Db, Store } from '../db/database.js';
import type { AuthContext } from '../auth/access.js';
import { createContactBody } from '../contracts/contacts.js';
import { createMemberBody } from '../contracts/members.js';
import type { Member } from '../db/schema.js';
import { nowMs, withClockBack } from '../lib/clock.js';
import { createContactIn } from '../modules/contacts/contacts.service.js';
import { createFolder } from '../modules/folders/folders.service.js';
import { createMember, createVendor } from '../modules/members/members.service.js';
import { HISTORY_DAYS, type HistoryContact, type RepHistory, seedCallHistory } from './demo-calls.js';
import { seedDialerDemo } from './demo-dialer.js';
import { random, type Random } from './random.js';

/** Seeding writes through the services, which need the store and the server key (personal tokens) only. */
export type SeedDeps = { store: Store; secretKey: Buffer };

export type DemoLogin = { role: 'vendor' | 'manager' | 'member'; username: string; password: string };
export const DEMO_PASSWORD = 'ringbook-demo';

/* How many contacts each login owns; the rest of the data follows from a fixed random seed. */
const TEAM = [
  { username: 'manager', role: 'manager', first: 'Morgan', last: 'Reyes', contacts: 380 },
  { username: 'alex', role: 'member', first: 'Alex', last: 'Turner', contacts: 540 },
  { username: 'blake', role: 'member', first: 'Blake', last: 'Okafor', contacts: 530 },
  { username: 'casey', role: 'member', first: 'Casey', last: 'Lindqvist', contacts: 530 },
] as const;
const VENDOR_CONTACTS = 20;
/* Contacts made in one transaction: a commit each took most of a first start on PostgreSQL (one fsync per contact). */
const CONTACTS_PER_WRITE = 100;
const DAY_MS = 86_400_000;
/* Each rep's dialer demo numbers sit in an exchange of their own (demo-dialer.ts). */
const DIALER_EXCHANGES = ['472', '473', '477'];

const FIRST = (
  'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica ' +
  'Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Sandra Steven Ashley Andrew Kimberly Joshua Emily ' +
  'Kevin Donna Brian Michelle George Carol Timothy Amanda Ryan Melissa Jacob Deborah Nicholas Laura Eric Rebecca Jonathan Sharon ' +
  'Priya Wei Mateo Sofia Aisha Diego Yuki Omar Fatima Lucas Chloe Noah Olivia Ethan Ava Liam Mia Hiroshi Elena Kwame'
).split(' ');
const LAST = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson ' +
  'Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen ' +
  'King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Patel Kim ' +
  'Chen Singh Murphy Cooper Reed Bailey Bell Kelly Howard Ward Cox Diaz Richardson Wood Watson Brooks Bennett Gray Nakamura'
).split(' ');
const STREETS = 'Main St|Oak Ave|Maple Dr|Cedar Ln|Park Ave|Pine St|Washington Blvd|Lake Rd|Hillcrest Dr|Elm St|Sunset Blvd|River Rd'.split(
  '|',
);
const COMPANIES = (
  'Northwind Traders|Contoso Ltd|Fabrikam Inc|Tailspin Toys|Litware|Adventure Works|Blue Yonder Airlines|' +
  'Wide World Importers|Proseware|Lucerne Publishing|Alpine Ski House|Coho Winery|Margie Travel|Trey Research'
).split('|');
const TAGS = ['VIP', 'Newsletter', 'Webinar 2026', 'Referral', 'Do not email'];
const NOTES = [
  'Asked for a call back next quarter.',
  'Interested in the annual plan; send pricing.',
  'Met at the trade show booth.',
  'Prefers e-mail over phone.',
  'Decision maker is the CFO; schedule a joint call.',
  'Left voicemail, no answer yet.',
];

/* Area codes across six time zones, each with a city, state and ZIP prefix that belong to it. */
const PLACES = [
  { area: '212', city: 'New York', state: 'NY', zip: '100' },
  { area: '646', city: 'New York', state: 'NY', zip: '100' },
  { area: '617', city: 'Boston', state: 'MA', zip: '021' },
  { area: '312', city: 'Chicago', state: 'IL', zip: '606' },
  { area: '214', city: 'Dallas', state: 'TX', zip: '752' },
  { area: '303', city: 'Denver', state: 'CO', zip: '802' },
  { area: '602', city: 'Phoenix', state: 'AZ', zip: '850' },
  { area: '415', city: 'San Francisco', state: 'CA', zip: '941' },
  { area: '213', city: 'Los Angeles', state: 'CA', zip: '900' },
  { area: '206', city: 'Seattle', state: 'WA', zip: '981' },
  { area: '907', city: 'Anchorage', state: 'AK', zip: '995' },
  { area: '808', city: 'Honolulu', state: 'HI', zip: '968' },
];

export async function seedDemo(ctx: SeedDeps): Promise<DemoLogin[]> {
  const seededAtMs = nowMs();
  // The team and its contacts exist a day before the history of calls starts: nothing is called before it is made.
  const reps = await withClockBack((HISTORY_DAYS + 1) * DAY_MS, () => seedTeamAndContacts(ctx));
  await seedCallHistory(ctx, reps, seededAtMs);
  return [
    { role: 'vendor', username: 'vendor', password: DEMO_PASSWORD },
    ...TEAM.map((t) => ({ role: t.role, username: t.username, password: DEMO_PASSWORD })),
  ];
}

/** The organisation, its team, folders, contacts and the dialer's demo; answers each rep with the contacts it owns. */
async function seedTeamAndContacts(ctx: SeedDeps): Promise<RepHistory[]> {
  const vendor = await createVendor(ctx, {
    username: 'vendor',
    password: DEMO_PASSWORD,
    email: 'valerie.grant@example.com',
    firstName: 'Valerie',
    lastName: 'Grant',
    organisation: 'Ringbook Demo Sales',
  });
  const vendorAuth = await authFor(ctx, vendor);
  const team = await createTeam(ctx, vendorAuth);
  const folderIds = await createFolders(ctx, vendorAuth);
  const rnd = random(20260101);
  const used = { emails: new Set<string>(), phones: new Set<string>() };
  const owned = new Map<number, HistoryContact[]>();
  for (const [member, count] of [[vendor, VENDOR_CONTACTS], ...team.map((t) => [t.member, t.contacts] as const)] as const) {
    const auth = await authFor(ctx, member);
    const contacts: HistoryContact[] = [];
    for (let i = 0; i < count; i += CONTACTS_PER_WRITE) {
      const bodies = Array.from({ length: Math.min(CONTACTS_PER_WRITE, count - i) }, () => contactBody(rnd, folderIds, used));
      const ids = await ctx.store.write(async (tx) => {
        const made: number[] = [];
        for (const body of bodies) made.push((await createContactIn(tx, auth, body)).id);
        return made;
      });
      contacts.push(...bodies.map((body, n) => ({ id: ids[n]!, phone: body.phone! })));
    }
    owned.set(member.id, contacts);
  }
  const reps = await Promise.all(
    team
      .filter((t) => t.member.role === 'member')
      .map(async (t) => ({ auth: await authFor(ctx, t.member), contacts: owned.get(t.member.id)! })),
  );
  await seedDialerDemo(
    ctx,
    vendorAuth,
    reps.map((rep, i) => ({ auth: rep.auth, exchange: DIALER_EXCHANGES[i]! })),
  );
  return reps;
}

async function authFor(ctx: SeedDeps, member: Member): Promise<AuthContext> {
  return { member, via: 'bearer', scope: await scopeFor(ctx.store.db, member) };
}

async function createTeam(ctx: SeedDeps, vendorAuth: AuthContext) {
  const memberBody = (t: (typeof TEAM)[number], managerId?: number) =>
    createMemberBody.parse({
      username: t.username,
      password: DEMO_PASSWORD,
      first_name: t.first,
      last_name: t.last,
      email: `${t.first}.${t.last}@example.com`.toLowerCase(),
      billing_item_id: 1,
      billing_group_id: 'demo',
      subgroup_id: 'sales',
      role: t.role,
      manager_id: managerId,
    });
  const [managerSpec, ...repSpecs] = TEAM;
  const manager = await createMember(ctx, vendorAuth, memberBody(managerSpec));
  // One after the other (not side by side) so the ids come out the same on every first start.
  const reps: Member[] = [];
  for (const spec of repSpecs) reps.push(await createMember(ctx, vendorAuth, memberBody(spec, manager.id)));
  return [manager, ...reps].map((member, i) => ({ member, contacts: TEAM[i]!.contacts }));
}

async function createFolders(ctx: SeedDeps, vendorAuth: AuthContext): Promise<number[]> {
  const folder = async (name: string, description: string, parentId?: number) =>
    (await createFolder(ctx, vendorAuth, { name, description, parent_id: parentId ?? null })).id;
  const prospects = await folder('Prospects', 'Leads not yet qualified');
  const hot = await folder('Hot leads', 'Qualified and ready for a call', prospects);
  const customers = await folder('Customers', 'Active paying accounts');
  const partners = await folder('Partners', 'Resellers and referral partners');
  const cold = await folder('Cold', 'No answer in the last six months');
  return [prospects, hot, customers, partners, cold];
}

/** A unique, valid NANP number: exchange 200-999 but not N11 or 555, so it never looks like a fake number. */
function phoneFor(rnd: Random, area: string, used: Set<string>): string {
  for (;;) {
    const exchange = rnd.int(200, 999);
    if (exchange % 100 === 11 || exchange === 555) continue;
    const phone = `${area}${exchange}${String(rnd.int(0, 9999)).padStart(4, '0')}`;
    if (!used.has(phone)) return (used.add(phone), phone);
  }
}

function emailFor(rnd: Random, first: string, last: string, company: string, used: Set<string>): string {
  const domain = rnd.chance(0.6) ? `${company.toLowerCase().replace(/[^a-z]/g, '')}.example.com` : 'example.com';
  const local = rnd.chance(0.5) ? `${first}.${last}` : `${first[0]}${last}`;
  for (let n = 0; ; n++) {
    const email = `${local}${n ? n + 1 : ''}@${domain}`.toLowerCase();
    if (!used.has(email)) return (used.add(email), email);
  }
}

function contactBody(rnd: Random, folderIds: number[], used: { emails: Set<string>; phones: Set<string> }) {
  const first = rnd.pick(FIRST);
  const last = rnd.pick(LAST);
  const place = rnd.pick(PLACES);
  const company = rnd.pick(COMPANIES);
  const tags = TAGS.filter(() => rnd.chance(0.15)).slice(0, 3);
  return createContactBody.parse({
    first_name: first,
    last_name: last,
    email: emailFor(rnd, first, last, company, used.emails),
    phone: phoneFor(rnd, place.area, used.phones),
    phone_type: rnd.pick([3, 3, 3, 1, 2]),
    address1: `${rnd.int(1, 9899)} ${rnd.pick(STREETS)}`,
    city: place.city,
    state: place.state,
    zip: `${place.zip}${String(rnd.int(1, 99)).padStart(2, '0')}`,
    country: 'US',
    category_id: rnd.chance(0.85) ? rnd.pick(folderIds) : undefined,
    tags,
    custom_fields: rnd.chance(0.7) ? customFields(rnd, company) : [],
    rating: rnd.chance(0.3) ? rnd.int(1, 5) : undefined,
    notes: rnd.chance(0.33) ? rnd.pick(NOTES) : undefined,
  });
}

function customFields(rnd: Random, company: string) {
  const month = String(rnd.int(1, 12)).padStart(2, '0');
  const day = String(rnd.int(1, 28)).padStart(2, '0');
  return [
    { name: 'Company', type: 1, value: company },
    { name: 'Annual revenue', type: 7, value: String(rnd.int(5, 5000) * 1000) },
    { name: 'Renewal date', type: 3, value: `${rnd.int(2026, 2027)}-${month}-${day}` },
    { name: 'Opted in', type: 2, value: rnd.chance(0.6) ? '1' : '0' },
  ];
}

/** The demo logins in a store that still sign in with the published password. */
export async function publishedDemoLogins(db: Db): Promise<string[]> {
  const usernames = ['vendor', ...TEAM.map((t) => t.username)];
  const members = await findMembersByUsername(db, usernames);
  const published = await Promise.all(
    members.map(async (m) => ((await verifyPassword(DEMO_PASSWORD, m.password_hash)) ? m.username : null)),
  );
  return published.filter((u): u is string => u !== null);
}
