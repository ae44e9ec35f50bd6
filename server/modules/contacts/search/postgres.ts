import { prepared } from '../../../db/prepared.js';
import { idsOfJson, jsonColumn, rowsOfJson } from '../../../db/dialect.js';
import type { Db } from '../../../db/database.js';
import { prefixEnd, searchMatch, searchTerms, searchWords } from './query.js';
import type { ContactSearch, IndexedText, SearchPlan } from './search-index.js';

/*
 * PostgreSQL's search (migration 0009): a contact_search table of each contact's lower-cased names, e-mail addresses
 * and phone digits, keyed by contact_id, with a pg_trgm GIN index per column, read with `like '%…%'` patterns that
 * give FTS5's trigram matches (`like` is case-sensitive here, FTS5's trigram tokenizer is not: hence the lower case).
 * There is no word index: every search reads the trigram index, or the prefix terms for a word of one or two
 * characters, as on SQLite.
 */

type Ids = { ids: string };
type Rows = { rows: string };

const unindexTrigrams = prepared<null, Ids, unknown>('postgres unindex trigrams', (db, _, p) =>
  db.deleteFrom('contact_search').where('contact_id', 'in', idsOfJson(db, p.ids)),
);
const insertTrigrams = prepared<null, Rows, unknown>('postgres index trigrams', (db, _, p) =>
  db
    .insertInto('contact_search')
    .columns(['contact_id', 'names', 'emails', 'phones'])
    .expression(
      db
        .selectFrom(rowsOfJson(db, p.rows))
        .select([
          jsonColumn(db, 0, 'integer').as('contact_id'),
          jsonColumn(db, 1, 'text').as('names'),
          jsonColumn(db, 2, 'text').as('emails'),
          jsonColumn(db, 3, 'text').as('phones'),
        ]),
    ),
);

/** Writes the rows of contacts that have none. */
async function insertRows(db: Db, texts: IndexedText[]) {
  if (texts.length)
    await insertTrigrams(db, null, {
      rows: JSON.stringify(texts.map((r) => [r.id, r.names.toLowerCase(), r.emails.join(' '), r.phones.join(' ')])),
    });
}

/** `like` patterns match `%` and `_` themselves only escaped (with the default escape, a backslash). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const postgresSearch: ContactSearch = {
  store: 'postgres',
  indexes: ['trigrams'],

  async write(db: Db, contactIds, texts, which) {
    // Owner and state are not in the trigram index: a 'words' reindex has nothing to write here.
    if (which === 'words') return;
    await unindexTrigrams(db, null, { ids: JSON.stringify(contactIds) });
    await insertRows(db, texts);
  },

  writeNew: (db, texts) => insertRows(db, texts),

  /**
   * The same matches as SQLite's trigram query (`searchMatch`): a number within a phone's digits, text within a name or
   * an e-mail address, every word required; a word shorter than three characters takes the prefix terms, as on SQLite.
   */
  plan(search): SearchPlan {
    if (searchMatch(search) === undefined) {
      const termStarts = searchTerms(search);
      return { params: { termStarts, termEnds: termStarts.map(prefixEnd) } };
    }
    const words = searchWords(search);
    const texts = words.flatMap((w) => (w.kind === 'text' ? [likePattern(w.text)] : []));
    const numbers = words.flatMap((w) => (w.kind === 'number' ? [likePattern(w.digits)] : []));
    return { params: { ...(texts.length ? { likeTexts: texts } : {}), ...(numbers.length ? { likeNumbers: numbers } : {}) } };
  },

  async entriesOf(db, contactId) {
    return { trigrams: (await db.selectFrom('contact_search').select('contact_id').where('contact_id', '=', contactId).execute()).length };
  },
};
