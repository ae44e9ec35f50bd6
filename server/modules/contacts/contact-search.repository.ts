import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import { nextTurn } from '../../db/chunks.js';
import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';
import { wordTokens } from '../../db/word-tokens.js';

/*
 * Three indexes serve the contacts list's `search`, all rewritten with the contact's names, e-mails and phones:
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

/**
 * The FTS5 query for a search, every word required in any order: a word of digits (and phone punctuation) matches a
 * run of a phone number, with an 11-digit number's leading 1 dropped; any other word, a part of a name or e-mail.
 * Undefined when a word is shorter than three characters: that search takes the prefix index.
 */
export function searchMatch(query: string): string | undefined {
  // A query that is all phone characters is one number, however it is spaced: "(214) 999 7486".
  const joined = /^[\d\s().+-]+$/.test(query) ? query.replace(/\s+/g, '') : query;
  const words = joined.toLowerCase().split(/\s+/).filter(Boolean);
  const parts = words.map((word) => {
    if (PHONE_WORD.test(word)) {
      const digits = word.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
      return digits.length >= 3 ? `phones : ${quoted(digits)}` : undefined;
    }
    return [...word].length >= 3 ? `{names emails} : ${quoted(word)}` : undefined;
  });
  return parts.length && parts.every(Boolean) ? parts.join(' AND ') : undefined;
}

type SearchSource = Pick<Contact, 'id' | 'org_id' | 'owner_id' | 'first_name' | 'last_name' | 'trashed' | 'archived'>;

/** A contact's prefix terms: names, full name, e-mail addresses and phone digits, lower-cased. */
export function termsOf(contact: Pick<Contact, 'first_name' | 'last_name'>, emails: string[], phones: string[]): string[] {
  const first = contact.first_name.toLowerCase().trim();
  const last = contact.last_name.toLowerCase().trim();
  const terms = new Set([first, last, `${first} ${last}`.trim(), ...emails.map((e) => e.toLowerCase()), ...phones]);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, 200));
}

/** Indexes a contact that has no entries yet (a new one). */
/* Prepared: every contact created or changed writes both, and building them cost more than SQLite took to run them. */
const insertTerms = prepared<null, { orgId: number; contactId: number; terms: string[] }, unknown>('insert search terms', (db, _, p) =>
  db.insertInto('contact_search_terms').values(p.terms.map((term) => ({ org_id: p.orgId, term, contact_id: p.contactId }))).onConflict((oc) => oc.doNothing()));

type SearchRow = { rowid: number; names: string; emails: string; phones: string };
const insertSearchRow = prepared<null, SearchRow, unknown>('insert search row', (db, _, p) => db.insertInto('contact_search').values(p));
const insertWordsRow = prepared<null, { rowid: number; words: string }, unknown>('insert words row', (db, _, p) => db.insertInto('contact_words').values(p));

const namesOf = (contact: SearchSource) => `${contact.first_name} ${contact.last_name}`.trim();
/** Only contacts in neither the trash nor the archive have a row in the word index (its searches are of those). */
const inWordIndex = (contact: SearchSource) => !contact.trashed && !contact.archived;

async function insertWords(db: Db, contact: SearchSource, emails: string[], phones: string[]) {
  if (inWordIndex(contact)) await insertWordsRow(db, null, { rowid: contact.id, words: wordTokens(contact.owner_id, namesOf(contact), emails, phones) });
}

export async function insertSearchTerms(db: Db, contact: SearchSource, emails: string[], phones: string[]) {
  const terms = termsOf(contact, emails, phones);
  if (terms.length) await insertTerms(db, null, { orgId: contact.org_id, contactId: contact.id, terms });
  const lowered = emails.map((e) => e.toLowerCase());
  await insertSearchRow(db, null, { rowid: contact.id, names: namesOf(contact), emails: lowered.join(' '), phones: phones.join(' ') });
  await insertWords(db, contact, lowered, phones);
}

/** Indexes a contact again from what its row, e-mails and phones hold now. */
const emailsToIndex = prepared<null, { id: number }, { email_lc: string }>('e-mails to index', (db, _, p) =>
  db.selectFrom('contact_emails').select('email_lc').where('contact_id', '=', p.id));
const phonesToIndex = prepared<null, { id: number }, { phone_number: string }>('phones to index', (db, _, p) =>
  db.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', p.id));
const unindexTerms = prepared<null, { id: number }, unknown>('unindex terms', (db, _, p) => db.deleteFrom('contact_search_terms').where('contact_id', '=', p.id));
const unindexRow = prepared<null, { id: number }, unknown>('unindex row', (db, _, p) => db.deleteFrom('contact_search').where('rowid', '=', p.id));
const unindexWords = prepared<null, { id: number }, unknown>('unindex words', (db, _, p) => db.deleteFrom('contact_words').where('rowid', '=', p.id));

export async function reindexSearch(db: Db, contact: SearchSource) {
  const [emails, phones] = await Promise.all([emailsToIndex(db, null, { id: contact.id }), phonesToIndex(db, null, { id: contact.id })]);
  await unindexTerms(db, null, { id: contact.id });
  await unindexRow(db, null, { id: contact.id });
  await unindexWords(db, null, { id: contact.id });
  await insertSearchTerms(db, contact, emails.map((e) => e.email_lc), phones.map((p) => p.phone_number));
}

/** A contact's phones or e-mails gained one entry and nothing else searched changed: what it holds now, and what came. */
export type SearchAddition = { kind: 'phones' | 'emails'; all: string[]; added: string[] };

/**
 * Indexes a contact again after an entry was added (a phone or an e-mail address): its full-text row is written
 * again from what it holds, but its terms only gain the new entry's, as none of them went away.
 */
export async function indexAddition(db: Db, contact: SearchSource, addition: SearchAddition) {
  const others = addition.kind === 'phones'
    ? (await emailsToIndex(db, null, { id: contact.id })).map((e) => e.email_lc)
    : (await phonesToIndex(db, null, { id: contact.id })).map((p) => p.phone_number);
  const [emails, phones] = addition.kind === 'phones' ? [others, addition.all] : [addition.all.map((e) => e.toLowerCase()), others];
  await unindexRow(db, null, { id: contact.id });
  await insertSearchRow(db, null, { rowid: contact.id, names: namesOf(contact), emails: emails.join(' '), phones: phones.join(' ') });
  await unindexWords(db, null, { id: contact.id });
  await insertWords(db, contact, emails, phones);
  const [addedEmails, addedPhones] = addition.kind === 'phones' ? [[], addition.added] : [addition.added, []];
  const terms = termsOf(contact, addedEmails, addedPhones);
  if (terms.length) await insertTerms(db, null, { orgId: contact.org_id, contactId: contact.id, terms });
}

/** Takes contacts out of every index (the FTS tables have no foreign key to cascade from). */
export async function unindex(db: Db, contactIds: number[]) {
  if (!contactIds.length) return;
  await db.deleteFrom('contact_search_terms').where('contact_id', 'in', contactIds).execute();
  await db.deleteFrom('contact_search').where('rowid', 'in', contactIds).execute();
  await db.deleteFrom('contact_words').where('rowid', 'in', contactIds).execute();
}

/** The most contacts `reindexContacts` takes in one statement (each id appears once in it). */
export const REINDEX_CHUNK = 5_000;

type IndexedRow = SearchSource & { emails: string | null; phones: string | null };

const indexedRows = (db: Db, ids: number[]): Promise<IndexedRow[]> =>
  db.selectFrom('contacts').where('id', 'in', ids)
    .select((eb) => [
      'id', 'org_id', 'owner_id', 'first_name', 'last_name', 'trashed', 'archived',
      eb.selectFrom('contact_emails').select(sql<string>`group_concat(email_lc, ' ')`.as('e')).whereRef('contact_emails.contact_id', '=', 'contacts.id').as('emails'),
      eb.selectFrom('contact_phones').select(sql<string>`group_concat(phone_number, ' ')`.as('p')).whereRef('contact_phones.contact_id', '=', 'contacts.id').as('phones'),
    ])
    .execute();

async function insertChunked<T>(rows: T[], size: number, write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/**
 * Indexes some contacts again from what they hold now, set-based: a few statements for up to REINDEX_CHUNK contacts,
 * and a turn of the event loop between chunks (a member's 100,000 contacts transferred; db/chunks.ts).
 * - `words`: the word index only, for contacts whose owner or state changed (a transfer, the trash, the archive):
 *   its tokens carry them.
 * - `all`: every index, for new contacts whose indexing waited for the end of their transaction. FTS5 writes what it
 *   holds in memory out to a segment of its own at every savepoint, so a dial session that indexed each new contact
 *   inside the contact's savepoint wrote two tiny segments a contact (500 new contacts: about 10 MB of log).
 */
export async function reindexContacts(db: Db, contactIds: number[], which: 'all' | 'words') {
  for (let i = 0; i < contactIds.length; i += REINDEX_CHUNK) {
    if (i > 0) await nextTurn();
    const ids = contactIds.slice(i, i + REINDEX_CHUNK);
    const rows = await indexedRows(db, ids);
    const emailsOf = (r: IndexedRow) => r.emails?.split(' ') ?? [];
    const phonesOf = (r: IndexedRow) => r.phones?.split(' ') ?? [];
    if (which === 'all') {
      await db.deleteFrom('contact_search_terms').where('contact_id', 'in', ids).execute();
      await db.deleteFrom('contact_search').where('rowid', 'in', ids).execute();
      const terms = rows.flatMap((r) => termsOf(r, emailsOf(r), phonesOf(r)).map((term) => ({ org_id: r.org_id, term, contact_id: r.id })));
      await insertChunked(terms, REINDEX_CHUNK, (chunk) => db.insertInto('contact_search_terms').values(chunk).onConflict((oc) => oc.doNothing()).execute());
      await insertChunked(rows, REINDEX_CHUNK, (chunk) => db.insertInto('contact_search').values(chunk.map((r) => ({
        rowid: r.id, names: namesOf(r), emails: r.emails ?? '', phones: r.phones ?? '',
      }))).execute());
    }
    await db.deleteFrom('contact_words').where('rowid', 'in', ids).execute();
    const active = rows.filter(inWordIndex);
    await insertChunked(active, REINDEX_CHUNK, (chunk) => db.insertInto('contact_words').values(chunk.map((r) => ({
      rowid: r.id, words: wordTokens(r.owner_id, namesOf(r), emailsOf(r), phonesOf(r)),
    }))).execute());
  }
}

/** The ids of contacts an FTS5 query matches, as a subquery of the list query (the query bound as a parameter). */
export const matchingIds = (eb: ExpressionBuilder<Database, 'contacts'>, match: Expression<string>) =>
  eb.selectFrom('contact_search').select('contact_search.rowid').where(sql<boolean>`contact_search match ${match}`);

/** The same of the word index's query (`wordsMatch`). */
export const matchingWordIds = (eb: ExpressionBuilder<Database, 'contacts'>, match: Expression<string>) =>
  eb.selectFrom('contact_words').select('contact_words.rowid').where(sql<boolean>`contact_words match ${match}`);
