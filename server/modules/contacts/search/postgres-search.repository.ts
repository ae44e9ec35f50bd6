import type { RawBuilder } from 'kysely';
import { prepared, preparedLater } from '../../../db/prepared.js';
import { idsOfJson, jsonColumn, rowsOfJson } from '../../../db/dialect.js';
import type { Db } from '../../../db/database.js';
import { prefixEnd, searchMatch, searchTerms, searchWords } from './query.js';
import type { ContactSearch, IndexedText, SearchPlan } from './contact-search.js';

/*
 * PostgreSQL's search (migrations 0009, 0023): a contact_search table of each contact's owner and lower-cased names,
 * e-mail addresses and phone digits, keyed by contact_id, with one GIN index over the owner (btree_gin) and the three
 * texts' trigrams (pg_trgm), read with `like '%…%'` patterns that give FTS5's trigram matches (`like` is case-sensitive
 * here, FTS5's trigram tokenizer is not: hence the lower case). A team's search names its owners, so the index answers
 * only their contacts. There is no word index: every search reads the trigram index, or the prefix terms for a word of
 * one or two characters, as on SQLite.
 */

type Ids = { ids: string };
type Rows = { rows: string };

const unindexTrigrams = prepared<null, Ids, unknown>('postgres unindex trigrams', (db, _, p) =>
  db.deleteFrom('contact_search').where('contact_id', 'in', idsOfJson(db, p.ids)),
);
const insertTrigramsOf = (db: Db, rows: unknown) =>
  db
    .insertInto('contact_search')
    .columns(['contact_id', 'owner_id', 'names', 'emails', 'phones'])
    .expression(
      db
        .selectFrom(rowsOfJson(db, rows))
        .select([
          jsonColumn(db, 0, 'integer').as('contact_id'),
          jsonColumn(db, 1, 'integer').as('owner_id'),
          jsonColumn(db, 2, 'text').as('names'),
          jsonColumn(db, 3, 'text').as('emails'),
          jsonColumn(db, 4, 'text').as('phones'),
        ]),
    );
const insertTrigrams = preparedLater<null, Rows>('postgres index trigrams', (db, _, p) => insertTrigramsOf(db, p.rows));
/** Writes contacts' rows, over those they have: one statement, where a delete and an insert were two round trips; it goes
 * with the write's next statement (db/later.ts), as the new contacts' rows do. */
const upsertTrigrams = preparedLater<null, Rows>('postgres reindex trigrams', (db, _, p) =>
  insertTrigramsOf(db, p.rows).onConflict((oc) =>
    oc.column('contact_id').doUpdateSet((eb) => ({
      owner_id: eb.ref('excluded.owner_id'),
      names: eb.ref('excluded.names'),
      emails: eb.ref('excluded.emails'),
      phones: eb.ref('excluded.phones'),
    })),
  ),
);
/** The owners of contacts whose texts did not change (a transfer): only the owner is written again. */
const setOwners = prepared<null, Rows, unknown>('postgres search owners', (db, _, p) =>
  db
    .updateTable('contact_search')
    .from(rowsOfJson(db, p.rows))
    .set({ owner_id: jsonColumn(db, 1, 'integer') as RawBuilder<number> })
    .where('contact_search.contact_id', '=', jsonColumn(db, 0, 'integer') as RawBuilder<number>),
);

/** Contacts' rows as `insertTrigrams` and `upsertTrigrams` take them. */
const trigramRows = (texts: IndexedText[]) =>
  JSON.stringify(texts.map((r) => [r.id, r.owner_id, r.names.toLowerCase(), r.emails.join(' '), r.phones.join(' ')]));

/** Writes the rows of contacts that have none. */
async function insertRows(db: Db, texts: IndexedText[]) {
  if (texts.length) await insertTrigrams(db, null, { rows: trigramRows(texts) });
}

/** `like` patterns match `%` and `_` themselves only escaped (with the default escape, a backslash). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const postgresSearch: ContactSearch = {
  store: 'postgres',
  indexes: ['trigrams'],

  async write(db: Db, contactIds, texts, which) {
    // A 'words' reindex follows a change of owner or state: the owner is in the index, the state is not.
    if (which === 'words') {
      if (texts.length) await setOwners(db, null, { rows: JSON.stringify(texts.map((r) => [r.id, r.owner_id])) });
      return;
    }
    // A contact still there has its row written over in one statement; one that is gone took its row with it (the
    // foreign key cascades), unless it is gone from the texts only.
    const kept = new Set(texts.map((t) => t.id));
    const gone = contactIds.filter((id) => !kept.has(id));
    if (gone.length) await unindexTrigrams(db, null, { ids: JSON.stringify(gone) });
    if (texts.length) await upsertTrigrams(db, null, { rows: trigramRows(texts) });
  },

  writeNew: (db, texts) => insertRows(db, texts),

  settle: async () => false,

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
