/*
 * Bulk loader for the benchmark: writes the rows the API writes for a contact with a name, an e-mail and a
 * phone, many at a time, so a million contacts load in minutes instead of hours of one-by-one creates.
 */
import { sql } from 'kysely';
import { hashPassword } from '../server/auth/passwords.js';
import { issuePersonalToken } from '../server/auth/tokens.js';
import type { Db, Store } from '../server/db/database.js';
import { followWrittenIds, prepareBulkLoad } from '../server/db/dialect.js';
import type { Member, NewContact } from '../server/db/schema.js';
import { toTimestamp } from '../server/lib/time.js';
import { recountOrganisation } from '../server/modules/contacts/contact-counts.repository.js';
import { DETAIL_KINDS } from '../server/modules/contacts/contact-rows.repository.js';
import { settleContactSearch, termsOf } from '../server/modules/contacts/contact-search.repository.js';
import { searchOf } from '../server/modules/contacts/search/search-index.js';
import { createVendor } from '../server/modules/members/members.service.js';

export type Team = { vendor: Member; members: Member[]; folderIds: number[] };

const CONTACTS_PER_TRANSACTION = 5_000;
/* What the loader writes, whose indexes a store may build once after the load rather than row by row. */
const LOADED_TABLES = ['contacts', 'contact_emails', 'contact_phones', 'contact_search_terms', 'contact_search'];
/* SQLite allows 32,766 bound variables per statement; 500 contacts x 12 columns stays well below. */
const ROWS_PER_STATEMENT = 500;
/*
 * Names as a CRM holds them: 204 first names and 234 last names, each about as common as a common name is (the most
 * common US surname is about 1 in 120 people; here each last name is 1 in 234), so a search by name matches about as
 * many contacts as it would in use. (The loader once drew from 13 last names: each 1 in 13, twenty times too common.)
 */
const FIRST = [
  'james',
  'mary',
  'robert',
  'patricia',
  'john',
  'jennifer',
  'michael',
  'linda',
  'david',
  'elizabeth',
  'william',
  'barbara',
  'richard',
  'susan',
  'joseph',
  'jessica',
  'thomas',
  'sarah',
  'charles',
  'karen',
  'christopher',
  'lisa',
  'daniel',
  'nancy',
  'matthew',
  'betty',
  'anthony',
  'margaret',
  'mark',
  'sandra',
  'donald',
  'ashley',
  'steven',
  'kimberly',
  'paul',
  'emily',
  'andrew',
  'donna',
  'joshua',
  'michelle',
  'kenneth',
  'carol',
  'kevin',
  'amanda',
  'brian',
  'dorothy',
  'george',
  'melissa',
  'timothy',
  'deborah',
  'ronald',
  'stephanie',
  'edward',
  'rebecca',
  'jason',
  'sharon',
  'jeffrey',
  'laura',
  'ryan',
  'cynthia',
  'jacob',
  'kathleen',
  'gary',
  'amy',
  'nicholas',
  'angela',
  'eric',
  'shirley',
  'jonathan',
  'anna',
  'stephen',
  'brenda',
  'larry',
  'pamela',
  'justin',
  'emma',
  'scott',
  'nicole',
  'brandon',
  'helen',
  'benjamin',
  'samantha',
  'samuel',
  'katherine',
  'gregory',
  'christine',
  'alexander',
  'debra',
  'frank',
  'rachel',
  'patrick',
  'carolyn',
  'raymond',
  'janet',
  'jack',
  'catherine',
  'dennis',
  'maria',
  'jerry',
  'heather',
  'tyler',
  'diane',
  'aaron',
  'ruth',
  'jose',
  'julie',
  'adam',
  'olivia',
  'henry',
  'joyce',
  'nathan',
  'virginia',
  'douglas',
  'victoria',
  'zachary',
  'kelly',
  'peter',
  'lauren',
  'kyle',
  'christina',
  'ethan',
  'joan',
  'walter',
  'evelyn',
  'noah',
  'judith',
  'jeremy',
  'megan',
  'christian',
  'andrea',
  'keith',
  'cheryl',
  'roger',
  'hannah',
  'terry',
  'jacqueline',
  'gerald',
  'martha',
  'harold',
  'gloria',
  'sean',
  'teresa',
  'austin',
  'ann',
  'carl',
  'sara',
  'arthur',
  'madison',
  'lawrence',
  'frances',
  'dylan',
  'kathryn',
  'jesse',
  'janice',
  'jordan',
  'jean',
  'bryan',
  'abigail',
  'billy',
  'alice',
  'joe',
  'julia',
  'bruce',
  'judy',
  'gabriel',
  'sophia',
  'logan',
  'grace',
  'albert',
  'denise',
  'willie',
  'amber',
  'alan',
  'doris',
  'juan',
  'marilyn',
  'wayne',
  'danielle',
  'elijah',
  'beverly',
  'randy',
  'isabella',
  'roy',
  'theresa',
  'vincent',
  'diana',
  'ralph',
  'natalie',
  'eugene',
  'brittany',
  'russell',
  'charlotte',
  'bobby',
  'marie',
  'mason',
  'kayla',
  'philip',
  'alexis',
  'louis',
  'lori',
  'priya',
  'wei',
  'mateo',
  'aisha',
];
const LAST = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'garcia',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'hernandez',
  'lopez',
  'gonzalez',
  'wilson',
  'anderson',
  'thomas',
  'taylor',
  'moore',
  'jackson',
  'martin',
  'lee',
  'perez',
  'thompson',
  'white',
  'harris',
  'sanchez',
  'clark',
  'ramirez',
  'lewis',
  'robinson',
  'walker',
  'young',
  'allen',
  'king',
  'wright',
  'scott',
  'torres',
  'nguyen',
  'hill',
  'flores',
  'green',
  'adams',
  'nelson',
  'baker',
  'hall',
  'rivera',
  'campbell',
  'mitchell',
  'carter',
  'roberts',
  'gomez',
  'phillips',
  'evans',
  'turner',
  'diaz',
  'parker',
  'cruz',
  'edwards',
  'collins',
  'reyes',
  'stewart',
  'morris',
  'morales',
  'murphy',
  'cook',
  'rogers',
  'gutierrez',
  'ortiz',
  'morgan',
  'cooper',
  'peterson',
  'bailey',
  'reed',
  'kelly',
  'howard',
  'ramos',
  'kim',
  'cox',
  'ward',
  'richardson',
  'watson',
  'brooks',
  'chavez',
  'wood',
  'james',
  'bennett',
  'gray',
  'mendoza',
  'ruiz',
  'hughes',
  'price',
  'alvarez',
  'castillo',
  'sanders',
  'patel',
  'myers',
  'long',
  'ross',
  'foster',
  'jimenez',
  'powell',
  'jenkins',
  'perry',
  'russell',
  'sullivan',
  'bell',
  'coleman',
  'butler',
  'henderson',
  'barnes',
  'gonzales',
  'fisher',
  'vasquez',
  'simmons',
  'romero',
  'jordan',
  'patterson',
  'alexander',
  'hamilton',
  'graham',
  'reynolds',
  'griffin',
  'wallace',
  'moreno',
  'west',
  'cole',
  'hayes',
  'bryant',
  'herrera',
  'gibson',
  'ellis',
  'tran',
  'medina',
  'aguilar',
  'stevens',
  'murray',
  'ford',
  'castro',
  'marshall',
  'owens',
  'harrison',
  'fernandez',
  'mcdonald',
  'woods',
  'washington',
  'kennedy',
  'wells',
  'vargas',
  'henry',
  'chen',
  'freeman',
  'webb',
  'tucker',
  'guzman',
  'burns',
  'crawford',
  'olson',
  'simpson',
  'porter',
  'hunter',
  'gordon',
  'mendez',
  'silva',
  'shaw',
  'snyder',
  'mason',
  'dixon',
  'munoz',
  'hunt',
  'hicks',
  'holmes',
  'palmer',
  'wagner',
  'black',
  'robertson',
  'boyd',
  'rose',
  'stone',
  'salazar',
  'fox',
  'warren',
  'mills',
  'meyer',
  'rice',
  'schmidt',
  'garza',
  'daniels',
  'ferguson',
  'nichols',
  'stephens',
  'soto',
  'weaver',
  'ryan',
  'gardner',
  'payne',
  'grant',
  'dunn',
  'kelley',
  'spencer',
  'hawkins',
  'arnold',
  'pierce',
  'vazquez',
  'hansen',
  'peters',
  'santos',
  'hart',
  'bradley',
  'knight',
  'elliott',
  'cunningham',
  'duncan',
  'armstrong',
  'hudson',
  'carroll',
  'lane',
  'riley',
  'andrews',
  'alvarado',
  'ray',
  'delgado',
  'berry',
  'perkins',
  'hoffman',
  'johnston',
  'matthews',
  'pena',
  'richards',
  'contreras',
  'willis',
  'carpenter',
  'lawrence',
  'sandoval',
  'okafor',
];
const AREAS = ['212', '312', '303', '415', '213', '907', '808'];
const FOLDERS = ['Prospects', 'Customers', 'Partners', 'Cold'];

const PASSWORD = 'bench-password';

export async function createTeam(store: Store, secretKey: Buffer, memberCount: number): Promise<Team> {
  const vendor = await createVendor(
    { store, secretKey },
    { username: 'bench-vendor', password: PASSWORD, email: 'vendor@bench.example.com' },
  );
  const members = await addReps(store, secretKey, vendor, memberCount, 'rep');
  const at = toTimestamp(new Date());
  const folderIds = await store.write(async (tx) => {
    const ids: number[] = [];
    for (const name of FOLDERS) {
      const row = { org_id: vendor.org_id, parent_id: null, name, created_by: vendor.id, created_at: at, updated_at: at };
      ids.push((await tx.insertInto('folders').values(row).returning('id').executeTakeFirstOrThrow()).id);
    }
    return ids;
  });
  return { vendor, members, folderIds };
}

/** `count` reps under the vendor (usernames bench-<prefix>-1…), each with its personal access token issued. */
export async function addReps(store: Store, secretKey: Buffer, vendor: Member, count: number, prefix: string): Promise<Member[]> {
  // One scrypt hash shared by every member: hashing M passwords would take longer than loading contacts.
  const passwordHash = await hashPassword(PASSWORD);
  const at = toTimestamp(new Date());
  return store.write(async (tx) => {
    const members: Member[] = [];
    for (let i = 1; i <= count; i++) {
      const member = await tx
        .insertInto('members')
        .values({
          org_id: vendor.org_id,
          parent_id: vendor.id,
          role: 'member',
          username: `bench-${prefix}-${i}`,
          password_hash: passwordHash,
          first_name: prefix === 'rep' ? 'Rep' : 'Dialer',
          last_name: String(i),
          email: `${prefix}${i}@bench.example.com`,
          phone: null,
          billing_item_id: '1',
          billing_group_id: 'bench',
          subgroup_id: 'bench',
          subscription_status: 'active',
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await issuePersonalToken(tx, secretKey, member);
      members.push(member);
    }
    return members;
  });
}

/** Contact ids are 1..N in creation order; the owner and folder follow from the id so callers can predict them. */
export const ownerIndexOf = (id: number, memberCount: number) => (id - 1) % memberCount;
export const folderIndexOf = (id: number, folderCount: number) => (id % 5 === 0 ? null : id % folderCount);

/** The name, e-mail and phone of contact `id`: what the loader writes, and what the search scenarios look for. */
export function identityOf(id: number) {
  // A fixed scramble of the id, so a name says nothing of the contact's owner or folder (which follow from the id).
  const mixed = Math.imul(id, 2654435761) >>> 0;
  const first = FIRST[mixed % FIRST.length]!;
  const last = LAST[Math.floor(mixed / FIRST.length) % LAST.length]!;
  const cap = (word: string) => word[0]!.toUpperCase() + word.slice(1);
  return { first: cap(first), last: cap(last), email: `${first}.${last}.${id}@bench.example.com`, phone: phoneOf(id) };
}

function contactRow(id: number, team: Team, createdAt: string): NewContact {
  const { first, last, email, phone } = identityOf(id);
  const folder = folderIndexOf(id, team.folderIds.length);
  return {
    id,
    org_id: team.vendor.org_id,
    owner_id: team.members[ownerIndexOf(id, team.members.length)]!.id,
    folder_id: folder === null ? null : team.folderIds[folder]!,
    first_name: first,
    last_name: last,
    email,
    phone,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** Unique ten-digit numbers: an area code, an exchange from 200 and a four-digit line, all derived from the id. */
function phoneOf(id: number): string {
  const area = AREAS[id % AREAS.length]!;
  const n = Math.floor(id / AREAS.length);
  return `${area}${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}`;
}

/** Exactly the terms the API writes for a contact with this name, e-mail and phone. */
function searchTerms(c: NewContact) {
  const contact = { id: c.id!, org_id: c.org_id, first_name: c.first_name ?? '', last_name: c.last_name ?? '' };
  return termsOf(contact, [c.email ?? ''], [c.phone ?? '']).map((term) => ({ org_id: c.org_id, term, contact_id: contact.id }));
}

async function insertChunked<T>(write: (rows: T[]) => Promise<unknown>, rows: T[], size: number) {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

async function insertBatch(tx: Db, contacts: NewContact[]) {
  await insertChunked((rows) => tx.insertInto('contacts').values(rows).execute(), contacts, ROWS_PER_STATEMENT);
  const emails = contacts.map((c) => ({ contact_id: c.id!, email_address: c.email!, email_lc: c.email!.toLowerCase(), is_primary: 1 }));
  await insertChunked((rows) => tx.insertInto('contact_emails').values(rows).execute(), emails, ROWS_PER_STATEMENT * 2);
  const phones = contacts.map((c, i) => ({ contact_id: c.id!, phone_number: c.phone!, type: [3, 1, 2][i % 3]!, is_primary: 1 }));
  await insertChunked((rows) => tx.insertInto('contact_phones').values(rows).execute(), phones, ROWS_PER_STATEMENT * 2);
  await insertChunked(
    (rows) => tx.insertInto('contact_search_terms').values(rows).execute(),
    contacts.flatMap(searchTerms),
    ROWS_PER_STATEMENT * 4,
  );
  // The full-text indexes, written by the store's own search as the API writes them for new contacts (docs/store.md):
  // on SQLite the trigram and word indexes, on PostgreSQL the pg_trgm-indexed texts.
  const texts = contacts.map((c) => ({
    id: c.id!,
    org_id: c.org_id,
    owner_id: c.owner_id,
    trashed: 0,
    archived: 0,
    names: `${c.first_name} ${c.last_name}`.trim(),
    emails: [c.email!.toLowerCase()],
    phones: [c.phone!],
  }));
  await searchOf(tx).writeNew(tx, texts);
}

/** Loads `count` contacts spread evenly over the team; prints progress and returns the elapsed milliseconds. */
export async function loadContacts(store: Store, team: Team, count: number, log: (line: string) => void): Promise<number> {
  const finishLoad = await store.write((tx) => prepareBulkLoad(tx, LOADED_TABLES));
  const started = performance.now();
  // Creation times one second apart, ending now, so ids and created_at grow together as they do in use.
  const firstCreated = Date.now() - count * 1000;
  let lastReport = started;
  for (let from = 1; from <= count; from += CONTACTS_PER_TRANSACTION) {
    const to = Math.min(count, from + CONTACTS_PER_TRANSACTION - 1);
    const rows: NewContact[] = [];
    for (let id = from; id <= to; id++) rows.push(contactRow(id, team, toTimestamp(new Date(firstCreated + id * 1000))));
    await store.write((tx) => insertBatch(tx, rows));
    if (performance.now() - lastReport > 5_000 || to === count) {
      lastReport = performance.now();
      const seconds = (lastReport - started) / 1000;
      log(
        `  loaded ${to.toLocaleString('en-US')} / ${count.toLocaleString('en-US')} contacts (${Math.round(to / seconds).toLocaleString('en-US')} contacts/s)`,
      );
    }
  }
  // The loader writes contacts directly, around the service that keeps their counts and gives their ids.
  await store.write(async (tx) => {
    await finishLoad(tx);
    await recountOrganisation(tx, team.vendor.org_id);
    await followWrittenIds(tx, 'contacts');
  });
  await store.write((tx) => sql`analyze`.execute(tx));
  // As a store that grew by single writes has them: the full-text merges the load's large transactions left under way
  // would otherwise fall on the scenarios' writes (docs/performance.md, "Writes at a million contacts").
  await settleContactSearch(store);
  return performance.now() - started;
}

/**
 * Gives the contacts with ids 1 to `count` one tag, with its detail_kinds bit as the API would set it: the tag the
 * catalog scenarios rename and delete. Answers its id.
 */
export async function tagContacts(store: Store, team: Team, count: number): Promise<number> {
  const orgId = team.vendor.org_id;
  return store.write(async (tx) => {
    const tag = await tx
      .insertInto('tags')
      .values({ org_id: orgId, title: 'Bench tag', title_lc: 'bench tag', created_at: toTimestamp(new Date()) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('contact_tags')
      .columns(['contact_id', 'tag_id'])
      .expression(
        tx
          .selectFrom('contacts')
          .select((eb) => ['id', eb.val(tag.id).as('tag_id')])
          .where('org_id', '=', orgId)
          .where('id', '<=', count),
      )
      .execute();
    await tx
      .updateTable('contacts')
      .set((eb) => ({ detail_kinds: eb('detail_kinds', '|', DETAIL_KINDS.tags) }))
      .where('org_id', '=', orgId)
      .where('id', '<=', count)
      .execute();
    return tag.id;
  });
}
