import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import { forBatchEnd } from '../../db/batch-end.js';
import { nextTurn } from '../../db/chunks.js';
import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';
import { wordTokens } from '../../db/word-tokens.js';

/*
 * Three indexes serve the contacts list's `search`, all written again from the contact's names, e-mails and phones
 * whenever they (or its owner or state) change, at the end of the write's batch (`indexLater`):
 * - the word index (contact_words, contact-words.ts) answers a rep's or a small team's search of words of letters or
 *   digits: its tokens carry the owner, so it counts matches without reading contacts;
 * - an FTS5 trigram index (contact_search) finds any part of a first or last name (names in either order), of an
 *   e-mail address (its domain too) and any run of three digits or more of a phone number, whoever owns the contact
 *   and whatever its state: searches with punctuation in a word, of the trash or archive, or of a whole organisation;
 * - a prefix index of terms (contact_search_terms) serves queries with a word of one or two characters, which neither
 *   can match.
 */

/** The next term after every term that starts with `prefix`, for an index range instead of LIKE. */
export const prefixEnd = (prefix: string) => prefix + '\uffff';

export function searchTerms(query: string): string[] {
  const lowered = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = lowered.replace(/[\s().+-]/g, '');
  return /^\d{3,}$/.test(digits) && digits !== lowered ? [lowered, digits.replace(/^1(?=\d{10}$)/, '')] : [lowered];
}

const PHONE_WORD = /^[\d().+-]*\d[\d().+-]*$/;
const quoted = (word: string) => `"${word.replaceAll('"', '""')}"`;

/** A word of a search as both full-text indexes read it: a number's digits, or text, lower-cased. */
export type SearchWord = { kind: 'number'; digits: string } | { kind: 'text'; text: string };

/**
 * A search's words: a query that is all phone characters is one number, however it is spaced ("(214) 999 7486"); a word
 * of digits and phone punctuation is a number, with an 11-digit number's leading 1 dropped; any other word is text.
 */
export function searchWords(query: string): SearchWord[] {
  const joined = /^[\d\s().+-]+$/.test(query) ? query.replace(/\s+/g, '') : query;
  return joined
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word): SearchWord =>
      PHONE_WORD.test(word)
        ? { kind: 'number', digits: word.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '') }
        : { kind: 'text', text: word },
    );
}

/**
 * The trigram index's query for a search, every word required in any order: a number matches a run of a phone number;
 * text, a part of a name or e-mail. Undefined when a word is shorter than three characters: that search takes the
 * prefix index.
 */
export function searchMatch(query: string): string | undefined {
  const parts = searchWords(query).map((word) => {
    if (word.kind === 'number') return word.digits.length >= 3 ? `phones : ${quoted(word.digits)}` : undefined;
    return [...word.text].length >= 3 ? `{names emails} : ${quoted(word.text)}` : undefined;
  });
  return parts.length && parts.every(Boolean) ? parts.join(' AND ') : undefined;
}

/** A contact's prefix terms: names, full name, e-mail addresses and phone digits, lower-cased. */
export function termsOf(contact: Pick<Contact, 'first_name' | 'last_name'>, emails: string[], phones: string[]): string[] {
  const first = contact.first_name.toLowerCase().trim();
  const last = contact.last_name.toLowerCase().trim();
  const terms = new Set([first, last, `${first} ${last}`.trim(), ...emails.map((e) => e.toLowerCase()), ...phones]);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, 200));
}

/** What the indexes hold of a contact, read from its rows: its e-mail addresses and phone digits as JSON lists. */
type IndexedRow = Pick<Contact, 'id' | 'org_id' | 'owner_id' | 'first_name' | 'last_name' | 'trashed' | 'archived'> & {
  emails: string;
  phones: string;
};

/*
 * Prepared, with the contacts and rows as JSON parameters (json_each), so each statement has one shape however many
 * contacts it takes: building them with Kysely for every write had cost more than SQLite took to run them.
 */
type Ids = { ids: string };
const inIds = (p: { ids: unknown }) => sql<number>`(select value from json_each(${p.ids}))`;
const indexedRows = prepared<null, Ids, IndexedRow>('rows to index', (db, _, p) =>
  db
    .selectFrom('contacts')
    .where('contacts.id', 'in', inIds(p))
    .select((eb) => [
      'contacts.id',
      'contacts.org_id',
      'contacts.owner_id',
      'contacts.first_name',
      'contacts.last_name',
      'contacts.trashed',
      'contacts.archived',
      eb
        .selectFrom('contact_emails')
        .select(sql<string>`json_group_array(email_lc)`.as('e'))
        .whereRef('contact_emails.contact_id', '=', 'contacts.id')
        .as('emails'),
      eb
        .selectFrom('contact_phones')
        .select(sql<string>`json_group_array(phone_number)`.as('p'))
        .whereRef('contact_phones.contact_id', '=', 'contacts.id')
        .as('phones'),
    ]),
);
/** A contact's names as the indexes hold them. */
const namesOf = (contact: Pick<Contact, 'first_name' | 'last_name'>) => `${contact.first_name} ${contact.last_name}`.trim();

/** What the indexes hold of some contacts, read from their rows (a contact that is gone is left out). */
export async function indexedTexts(db: Db, contactIds: number[]) {
  const rows = await indexedRows(db, null, { ids: JSON.stringify(contactIds) });
  return rows.map((r) => ({ ...r, names: namesOf(r), emails: JSON.parse(r.emails) as string[], phones: JSON.parse(r.phones) as string[] }));
}

const unindexTerms = prepared<null, Ids, unknown>('unindex terms', (db, _, p) =>
  db.deleteFrom('contact_search_terms').where('contact_id', 'in', inIds(p)),
);
const unindexTrigrams = prepared<null, Ids, unknown>('unindex trigrams', (db, _, p) =>
  db.deleteFrom('contact_search').where('rowid', 'in', inIds(p)),
);
const unindexWords = prepared<null, Ids, unknown>('unindex words', (db, _, p) =>
  db.deleteFrom('contact_words').where('rowid', 'in', inIds(p)),
);

/** Rows as a JSON list of lists, one column each, in the order the statement names them. */
type Rows = { rows: string };
const column = (i: number) => sql.raw(`j.value ->> ${i}`);
const insertTerms = prepared<null, Rows, unknown>('index terms', (db, _, p) =>
  db
    .insertInto('contact_search_terms')
    .columns(['org_id', 'term', 'contact_id'])
    // `where true`: without it SQLite would read the upsert's ON as a join's (its documented ambiguity).
    .expression(
      db
        .selectFrom(sql`json_each(${p.rows})`.as('j'))
        .select([column(0).as('org_id'), column(1).as('term'), column(2).as('contact_id')])
        .where(sql<boolean>`true`),
    )
    .onConflict((oc) => oc.doNothing()),
);
const insertTrigrams = prepared<null, Rows, unknown>('index trigrams', (db, _, p) =>
  db
    .insertInto('contact_search')
    .columns(['rowid', 'names', 'emails', 'phones'])
    .expression(
      db
        .selectFrom(sql`json_each(${p.rows})`.as('j'))
        .select([column(0).as('rowid'), column(1).as('names'), column(2).as('emails'), column(3).as('phones')]),
    ),
);
const insertWords = prepared<null, Rows, unknown>('index words', (db, _, p) =>
  db
    .insertInto('contact_words')
    .columns(['rowid', 'words'])
    .expression(db.selectFrom(sql`json_each(${p.rows})`.as('j')).select([column(0).as('rowid'), column(1).as('words')])),
);

/** Only contacts in neither the trash nor the archive have a row in the word index (its searches are of those). */
const inWordIndex = (contact: Pick<Contact, 'trashed' | 'archived'>) => !contact.trashed && !contact.archived;

/** What of a contact's indexes to write again (`reindexContacts`). */
export type Reindex = 'all' | 'added' | 'words';

/** The most contacts `reindexContacts` takes at once. */
export const REINDEX_CHUNK = 5_000;

/**
 * Indexes some contacts again from what their rows hold now (a contact that is gone leaves every index), a chunk of
 * up to REINDEX_CHUNK contacts in a few statements, with a turn of the event loop between chunks (a member's 100,000
 * contacts transferred; db/chunks.ts).
 * - `all`: every index (a contact new or changed, or gone);
 * - `added`: the same for contacts that only gained phones or e-mail addresses: their prefix terms only gain the new
 *   entries' (none went away), so the terms they hold are not deleted and written again;
 * - `words`: the word index only (its owner or state changed, which only the word index's tokens carry).
 */
export async function reindexContacts(db: Db, contactIds: number[], which: Reindex) {
  for (let i = 0; i < contactIds.length; i += REINDEX_CHUNK) {
    if (i > 0) await nextTurn();
    const chunk = contactIds.slice(i, i + REINDEX_CHUNK);
    const ids = JSON.stringify(chunk);
    const rows = await indexedTexts(db, chunk);
    if (which !== 'words') {
      if (which === 'all') await unindexTerms(db, null, { ids });
      await unindexTrigrams(db, null, { ids });
      const terms = rows.flatMap((r) => termsOf(r, r.emails, r.phones).map((term) => [r.org_id, term, r.id]));
      if (terms.length) await insertTerms(db, null, { rows: JSON.stringify(terms) });
      if (rows.length)
        await insertTrigrams(db, null, { rows: JSON.stringify(rows.map((r) => [r.id, r.names, r.emails.join(' '), r.phones.join(' ')])) });
    }
    await unindexWords(db, null, { ids });
    const active = rows.filter(inWordIndex);
    if (active.length)
      await insertWords(db, null, { rows: JSON.stringify(active.map((r) => [r.id, wordTokens(r.owner_id, r.names, r.emails, r.phones)])) });
  }
}

const PENDING = {};

/**
 * Has contacts indexed again from their rows at the end of the write's group-commit batch (db/batch-end.ts), once for
 * all the batch's writers and outside their savepoints: FTS5 writes out a segment at every savepoint, so indexing each
 * writer's contacts in its savepoint had cost a segment per writer per index (a dial session creates each new contact
 * in a savepoint of its own: two segments a contact). Reading the rows at the end also makes the indexes follow
 * whatever the batch did last. Outside a batch (a script), at once.
 */
export function indexLater(tx: Db, contactIds: number[], which: Reindex): Promise<void> {
  const pending = forBatchEnd(tx, PENDING, () => {
    const state: Record<Reindex, Set<number>> = { all: new Set(), added: new Set(), words: new Set() };
    const run = async () => {
      // A contact asked for twice in one batch gets the most either asked for.
      await reindexContacts(tx, [...state.all], 'all');
      await reindexContacts(
        tx,
        [...state.added].filter((id) => !state.all.has(id)),
        'added',
      );
      await reindexContacts(
        tx,
        [...state.words].filter((id) => !state.all.has(id) && !state.added.has(id)),
        'words',
      );
    };
    return { state, run };
  });
  if (!pending) return reindexContacts(tx, contactIds, which);
  for (const id of contactIds) pending[which].add(id);
  return Promise.resolve();
}

/** The two full-text indexes a search reads its matches from: the trigram index and the word index. */
export type SearchIndex = 'contact_search' | 'contact_words';

/** The ids of contacts an FTS5 query of one of the indexes matches, as a subquery of the list query (the query bound as a parameter). */
export const matchingIds = (eb: ExpressionBuilder<Database, 'contacts'>, index: SearchIndex, match: Expression<string>) =>
  eb
    .selectFrom(index)
    .select(sql<number>`rowid`.as('rowid'))
    .where(sql<boolean>`${sql.table(index)} match ${match}`);
