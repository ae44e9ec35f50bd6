import type { Scope } from '../../../auth/access.js';
import type { ListContactsQuery } from '../../../contracts/contacts.js';
import type { Db } from '../../../db/database.js';
import type { WordsQuery } from '../contact-words.js';

/*
 * What a store's full-text search is (the interface), apart from which implementation a store has (search-index.ts),
 * so the implementations and the choice of one do not import each other.
 */

/** What a contact is indexed by, read from its rows (contact-search.repository.ts `indexedTexts`). */
export type IndexedText = {
  id: number;
  org_id: number;
  owner_id: number;
  trashed: number;
  archived: number;
  names: string;
  emails: string[];
  phones: string[];
};

/** The list parameters a search adds (contact-list.repository.ts applies them, whichever store answered). */
export type SearchParams = {
  /** SQLite: the trigram index's FTS5 query. */
  searchMatch?: string;
  /** Both: the prefix index's ranges, for a word of one or two characters. */
  termStarts?: string[];
  termEnds?: string[];
  /** SQLite: the word index's query, in place of `searchMatch` when that index can answer the search. */
  wordsMatch?: string;
  /**
   * PostgreSQL: `%word%` patterns over the trigram-indexed lower-cased names or e-mail addresses (`likeTexts`) and over
   * the phones' digits (`likeNumbers`), every one required.
   */
  likeTexts?: string[];
  likeNumbers?: string[];
};

/** A search's plan: its parameters, and (SQLite) the word index's candidates to try first. */
export type SearchPlan = { params: SearchParams; candidates?: WordsQuery };

/** The indexes an implementation keeps, by what they are (for checks of what a contact is indexed under). */
export type IndexName = 'trigrams' | 'words';

export interface ContactSearch {
  readonly store: 'sqlite' | 'postgres';
  /** The indexes this store keeps: SQLite both, PostgreSQL the trigram index only. */
  readonly indexes: readonly IndexName[];
  /** Writes these contacts' full-text rows again (`texts`: those still there); 'words': only what carries owner and state. */
  write(db: Db, contactIds: number[], texts: IndexedText[], which: 'all' | 'added' | 'words'): Promise<void>;
  /** Writes the rows of contacts the indexes do not hold yet (a bulk load: nothing to take out first). */
  writeNew(db: Db, texts: IndexedText[]): Promise<void>;
  /**
   * One bounded step of the merging a bulk load leaves the indexes owing (`settleContactSearch`): answers whether it
   * did any, so that the caller asks again until none is left. PostgreSQL's indexes owe none.
   */
  settle(db: Db): Promise<boolean>;
  /** How a list search is answered for this scope and query. */
  plan(search: string, scope: Scope, q: ListContactsQuery): SearchPlan;
  /** How many rows of each of its indexes hold a contact (0 or 1 each): what a test or a check reads. */
  entriesOf(db: Db, contactId: number): Promise<Partial<Record<IndexName, number>>>;
}
