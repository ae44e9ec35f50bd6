import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import { forBatchEnd } from '../../db/batch-end.js';
import { nextTurn } from '../../db/chunks.js';
import type { Db, Store } from '../../db/database.js';
import { idsOfJson, jsonColumn, jsonListOf, rowsOfJson } from '../../db/dialect.js';
import { prepared, preparedLater } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';
import { searchOf } from './search/search-index.js';

/*
 * (The full-text indexes below are SQLite's; PostgreSQL's are in search/postgres-search.repository.ts. Each store writes and reads its
 * own through search/search-index.ts; the prefix terms are the same table on both.)
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

// How a search splits into words and queries (search/query.ts), for the modules that imported them from here.
export { prefixEnd, type SearchWord, searchMatch, searchTerms, searchWords } from './search/query.js';

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
const inIds = (db: Db, p: { ids: unknown }) => idsOfJson(db, p.ids);
const indexedRows = prepared<null, Ids, IndexedRow>('rows to index', (db, _, p) =>
  db
    .selectFrom('contacts')
    .where('contacts.id', 'in', inIds(db, p))
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
        .select(jsonListOf(db, 'email_lc').as('e'))
        .whereRef('contact_emails.contact_id', '=', 'contacts.id')
        .as('emails'),
      eb
        .selectFrom('contact_phones')
        .select(jsonListOf(db, 'phone_number').as('p'))
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

/*
 * The terms of these contacts (`ids`) that are not among those they hold now (`rows`, as `insertTerms` takes them): a
 * contact whose first name changed loses its old first name and full name, and keeps its last name, e-mails and
 * phones where they are, rather than all of them deleted and written again (each a page of a B-tree keyed by term,
 * far apart from the others: at a million contacts most of an update's written pages). The new terms are one
 * uncorrelated list, which either store reads once (SQLite: an ephemeral index; PostgreSQL: a hashed subplan).
 */
type TermsOf = Ids & Rows;
// Held (later.ts): nothing reads its count, and on PostgreSQL it goes with the terms' insert that follows it.
const unindexOtherTerms = preparedLater<null, TermsOf>('unindex other terms', (db, _, p) =>
  db
    .deleteFrom('contact_search_terms')
    .where('contact_id', 'in', inIds(db, p))
    .where(
      sql<boolean>`(contact_id, term) not in (select ${jsonColumn(db, 2, 'integer')}, ${jsonColumn(db, 1, 'text')} from ${rowsOfJson(db, p.rows)})`,
    ),
);

/** Rows as a JSON list of lists, one column each, in the order the statement names them. */
type Rows = { rows: string };
const insertTerms = preparedLater<null, Rows>('index terms', (db, _, p) =>
  db
    .insertInto('contact_search_terms')
    .columns(['org_id', 'term', 'contact_id'])
    // `where true`: without it SQLite would read the upsert's ON as a join's (its documented ambiguity).
    .expression(
      db
        .selectFrom(rowsOfJson(db, p.rows))
        .select([
          jsonColumn(db, 0, 'integer').as('org_id'),
          jsonColumn(db, 1, 'text').as('term'),
          jsonColumn(db, 2, 'integer').as('contact_id'),
        ])
        .where(sql<boolean>`true`),
    )
    .onConflict((oc) => oc.doNothing()),
);

/** What of a contact's indexes to write again (`reindexContacts`). */
export type Reindex = 'all' | 'new' | 'added' | 'words';

/** The most contacts `reindexContacts` takes at once. */
export const REINDEX_CHUNK = 5_000;

/**
 * Indexes some contacts again from what their rows hold now (a contact that is gone leaves every index), a chunk of
 * up to REINDEX_CHUNK contacts in a few statements, with a turn of the event loop between chunks (a member's 100,000
 * contacts transferred; db/chunks.ts).
 * - `all`: every index (a contact changed, or gone);
 * - `new`: every index, for contacts created in this transaction, which no index holds yet: their rows are only
 *   inserted (nothing to take out first: a create's two deletes, and on SQLite its FTS5 look-ups for rows to delete);
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
      const terms = JSON.stringify(rows.flatMap((r) => termsOf(r, r.emails, r.phones).map((term) => [r.org_id, term, r.id])));
      // Terms a contact holds already stay as they are (the insert passes over them).
      if (which === 'all') await unindexOtherTerms(db, null, { ids, rows: terms });
      if (terms !== '[]') await insertTerms(db, null, { rows: terms });
    }
    // The full-text indexes are the store's own (search/: FTS5's trigrams and words on SQLite, pg_trgm on PostgreSQL).
    if (which === 'new') await searchOf(db).writeNew(db, rows);
    else await searchOf(db).write(db, chunk, rows, which);
  }
}

/**
 * Merges what a bulk load (the bench's loader, a copy of a store, an import of many contacts) left the full-text
 * indexes owing, a bounded step per write transaction so that other writers go between them, until nothing is left
 * (search/sqlite-search.repository.ts, `settle`: FTS5's merges under way were most of a later update's cost).
 */
export async function settleContactSearch(store: Pick<Store, 'write'>): Promise<void> {
  while (await store.write((tx) => searchOf(tx).settle(tx))) await nextTurn();
}

/** The tables the contacts' search keeps, on either store: derived from the contacts' rows, so a copy of a store
 * (db/copy-store.ts) rebuilds them with `reindexContactsAfter` rather than copying them. */
export const CONTACT_SEARCH_TABLES = ['contact_search', 'contact_words', 'contact_search_terms'] as const;

/**
 * Indexes the next REINDEX_CHUNK contacts after `afterId`, in id order, into every index (a store being filled):
 * answers how many it took and the last id, or null when none is left.
 */
export async function reindexContactsAfter(tx: Db, afterId: number): Promise<{ count: number; lastId: number } | null> {
  const rows = await tx.selectFrom('contacts').select('id').where('id', '>', afterId).orderBy('id').limit(REINDEX_CHUNK).execute();
  if (!rows.length) return null;
  await reindexContacts(
    tx,
    rows.map((r) => r.id),
    'all',
  );
  return { count: rows.length, lastId: rows[rows.length - 1]!.id };
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
    const state: Record<Reindex, Set<number>> = { all: new Set(), new: new Set(), added: new Set(), words: new Set() };
    const run = async () => {
      // A contact asked for twice in one batch gets the most either asked for. A new one is written whole from its rows
      // as they are at the batch's end, so whatever else was asked for it is covered; but a contact deleted in the
      // batch whose id a new one then took (SQLite reuses the highest rowid) is still in the indexes: 'all' wins.
      const done = new Set<number>();
      const take = (which: Reindex) => {
        const ids = [...state[which]].filter((id) => !done.has(id));
        for (const id of ids) done.add(id);
        return ids;
      };
      await reindexContacts(tx, take('all'), 'all');
      await reindexContacts(tx, take('new'), 'new');
      await reindexContacts(tx, take('added'), 'added');
      await reindexContacts(tx, take('words'), 'words');
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
