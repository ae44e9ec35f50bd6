import { sql } from 'kysely';
import type { Scope } from '../../../auth/access.js';
import type { ListContactsQuery } from '../../../contracts/contacts.js';
import type { Db } from '../../../db/database.js';
import { idsOfJson, jsonColumn, rowsOfJson } from '../../../db/dialect.js';
import { prepared } from '../../../db/prepared.js';
import { wordTokens } from '../../../db/word-tokens.js';
import { prefixEnd, searchMatch, searchTerms } from './query.js';
import { wordsQuery } from '../contact-words.js';
import type { ContactSearch, IndexedText, SearchPlan } from './contact-search.js';

/*
 * SQLite's search: an FTS5 trigram index (contact_search, keyed by the contact's id as its rowid) of every contact,
 * and the word index (contact_words, contact-words.ts) of the contacts outside the trash and the archive, whose tokens
 * carry the owner.
 */

type Ids = { ids: string };
type Rows = { rows: string };
const inIds = (db: Db, p: { ids: unknown }) => idsOfJson(db, p.ids);

const unindexTrigrams = prepared<null, Ids, unknown>('sqlite unindex trigrams', (db, _, p) =>
  db.deleteFrom('contact_search').where('rowid', 'in', inIds(db, p)),
);
const unindexWords = prepared<null, Ids, unknown>('sqlite unindex words', (db, _, p) =>
  db.deleteFrom('contact_words').where('rowid', 'in', inIds(db, p)),
);
const insertTrigrams = prepared<null, Rows, unknown>('sqlite index trigrams', (db, _, p) =>
  db
    .insertInto('contact_search')
    .columns(['rowid', 'names', 'emails', 'phones'])
    .expression(
      db
        .selectFrom(rowsOfJson(db, p.rows))
        .select([
          jsonColumn(db, 0, 'integer').as('rowid'),
          jsonColumn(db, 1, 'text').as('names'),
          jsonColumn(db, 2, 'text').as('emails'),
          jsonColumn(db, 3, 'text').as('phones'),
        ]),
    ),
);
const insertWords = prepared<null, Rows, unknown>('sqlite index words', (db, _, p) =>
  db
    .insertInto('contact_words')
    .columns(['rowid', 'words'])
    .expression(
      db.selectFrom(rowsOfJson(db, p.rows)).select([jsonColumn(db, 0, 'integer').as('rowid'), jsonColumn(db, 1, 'text').as('words')]),
    ),
);

/** Only contacts in neither the trash nor the archive have a row in the word index (its searches are of those). */
const inWordIndex = (contact: Pick<IndexedText, 'trashed' | 'archived'>) => !contact.trashed && !contact.archived;

/** Writes the rows of contacts that have none: both indexes', or ('words') the word index's only. */
async function insertRows(db: Db, texts: IndexedText[], which: 'all' | 'words') {
  if (which === 'all' && texts.length)
    await insertTrigrams(db, null, { rows: JSON.stringify(texts.map((r) => [r.id, r.names, r.emails.join(' '), r.phones.join(' ')])) });
  const active = texts.filter(inWordIndex);
  if (active.length)
    await insertWords(db, null, { rows: JSON.stringify(active.map((r) => [r.id, wordTokens(r.owner_id, r.names, r.emails, r.phones)])) });
}

/**
 * The word index holds the contacts outside the trash and the archive, under their owners: it answers searches of
 * those (as a list shows by default) by a team of at most this many members (each member is a clause of the query:
 * past a few, reading the matches and checking their owners costs less). Other searches go to the trigram index.
 */
export const WORD_SCOPE_MEMBERS = 16;

function wordScope(scope: Scope, q: ListContactsQuery): scope is Scope & { kind: 'team' } {
  return (
    scope.kind === 'team' && scope.memberIds.length <= WORD_SCOPE_MEMBERS && !q.include_trashed && !q.only_trashed && !q.include_archived
  );
}

const count = (rows: unknown[]) => rows.length;

/*
 * FTS5 keeps each index as segments on levels and merges them a little at every commit: for every 64 leaf pages a
 * commit writes, it merges 64 pages per level of whatever merge is under way. A bulk load (thousands of contacts per
 * transaction) leaves merges of its large segments under way, and every write then pays for them: at a million
 * contacts, an update's delete and insert of its trigram row cost 790 us and ten pages of merging (500 of them, 10 a
 * commit), against 62 us and none once the load's segments were merged (`settle`).
 */
const SETTLE_PAGES = 2_000;

export const sqliteSearch: ContactSearch = {
  store: 'sqlite',
  indexes: ['trigrams', 'words'],

  async write(db, contactIds, texts, which) {
    const ids = JSON.stringify(contactIds);
    if (which !== 'words') await unindexTrigrams(db, null, { ids });
    await unindexWords(db, null, { ids });
    await insertRows(db, texts, which === 'words' ? 'words' : 'all');
  },

  writeNew: (db, texts) => insertRows(db, texts, 'all'),

  async settle(db) {
    const changes = async () => (await sql<{ n: number }>`select total_changes() as n`.execute(db)).rows[0]!.n;
    let worked = false;
    // FTS5's 'merge' with a negative size merges every level into one segment, SETTLE_PAGES pages a step. Its docs: the
    // step did some work if the total of changes moved by 2 or more.
    for (const index of ['contact_search', 'contact_words'] as const) {
      const before = await changes();
      await sql`insert into ${sql.table(index)} (${sql.ref(index)}, rank) values ('merge', ${-SETTLE_PAGES})`.execute(db);
      if ((await changes()) - before >= 2) worked = true;
    }
    return worked;
  },

  plan(search, scope, q): SearchPlan {
    const words = wordScope(scope, q) ? wordsQuery(search, scope.memberIds) : undefined;
    if (words && !words.verify.length) return { params: { wordsMatch: words.match } };
    const match = searchMatch(search);
    // The trigram index has the exact answer; the word index's candidates are tried first (`checkedCandidates`).
    if (match) return words ? { params: { searchMatch: match }, candidates: words } : { params: { searchMatch: match } };
    const termStarts = searchTerms(search);
    return { params: { termStarts, termEnds: termStarts.map(prefixEnd) } };
  },

  async entriesOf(db, contactId) {
    return {
      trigrams: count(
        await db
          .selectFrom('contact_search')
          .select(sql<number>`rowid`.as('id'))
          .where(sql<boolean>`rowid = ${contactId}`)
          .execute(),
      ),
      words: count(
        await db
          .selectFrom('contact_words')
          .select(sql<number>`rowid`.as('id'))
          .where(sql<boolean>`rowid = ${contactId}`)
          .execute(),
      ),
    };
  },
};
