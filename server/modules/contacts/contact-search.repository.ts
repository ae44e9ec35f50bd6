import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';

/*
 * Two indexes serve the contacts list's `search`: an FTS5 trigram index (contact_search) finds any part of a first
 * or last name (names in either order), of an e-mail address (its domain too) and any run of three digits or more of
 * a phone number; a prefix index of terms (contact_search_terms) serves queries with a word of one or two
 * characters, which trigrams cannot match. Both are rewritten with the contact's names, e-mails and phones.
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

type SearchSource = Pick<Contact, 'id' | 'org_id' | 'first_name' | 'last_name'>;

/** A contact's prefix terms: names, full name, e-mail addresses and phone digits, lower-cased. */
export function termsOf(contact: SearchSource, emails: string[], phones: string[]): string[] {
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

export async function insertSearchTerms(db: Db, contact: SearchSource, emails: string[], phones: string[]) {
  const terms = termsOf(contact, emails, phones);
  if (terms.length) await insertTerms(db, null, { orgId: contact.org_id, contactId: contact.id, terms });
  await insertSearchRow(db, null, {
    rowid: contact.id, names: `${contact.first_name} ${contact.last_name}`.trim(), emails: emails.map((e) => e.toLowerCase()).join(' '), phones: phones.join(' '),
  });
}

/** Indexes a contact again from what its row, e-mails and phones hold now. */
const emailsToIndex = prepared<null, { id: number }, { email_lc: string }>('e-mails to index', (db, _, p) =>
  db.selectFrom('contact_emails').select('email_lc').where('contact_id', '=', p.id));
const phonesToIndex = prepared<null, { id: number }, { phone_number: string }>('phones to index', (db, _, p) =>
  db.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', p.id));
const unindexTerms = prepared<null, { id: number }, unknown>('unindex terms', (db, _, p) => db.deleteFrom('contact_search_terms').where('contact_id', '=', p.id));
const unindexRow = prepared<null, { id: number }, unknown>('unindex row', (db, _, p) => db.deleteFrom('contact_search').where('rowid', '=', p.id));

export async function reindexSearch(db: Db, contact: SearchSource) {
  const [emails, phones] = await Promise.all([emailsToIndex(db, null, { id: contact.id }), phonesToIndex(db, null, { id: contact.id })]);
  await unindexTerms(db, null, { id: contact.id });
  await unindexRow(db, null, { id: contact.id });
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
  await insertSearchRow(db, null, {
    rowid: contact.id, names: `${contact.first_name} ${contact.last_name}`.trim(), emails: emails.join(' '), phones: phones.join(' '),
  });
  const [addedEmails, addedPhones] = addition.kind === 'phones' ? [[], addition.added] : [addition.added, []];
  const terms = termsOf(contact, addedEmails, addedPhones);
  if (terms.length) await insertTerms(db, null, { orgId: contact.org_id, contactId: contact.id, terms });
}

/** Takes contacts out of both indexes (the FTS table has no foreign key to cascade from). */
export async function unindex(db: Db, contactIds: number[]) {
  if (!contactIds.length) return;
  await db.deleteFrom('contact_search_terms').where('contact_id', 'in', contactIds).execute();
  await db.deleteFrom('contact_search').where('rowid', 'in', contactIds).execute();
}

/** The ids of contacts an FTS5 query matches, as a subquery of the list query (the query bound as a parameter). */
export const matchingIds = (eb: ExpressionBuilder<Database, 'contacts'>, match: Expression<string>) =>
  eb.selectFrom('contact_search').select('contact_search.rowid').where(sql<boolean>`contact_search match ${match}`);
