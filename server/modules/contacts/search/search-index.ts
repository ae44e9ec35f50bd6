import type { Db } from '../../../db/database.js';
import { type StoreKind, storeKind } from '../../../db/store-kind.js';
import type { ContactSearch } from './contact-search.js';
import { postgresSearch } from './postgres-search.repository.js';
import { sqliteSearch } from './sqlite-search.repository.js';

/*
 * The contacts list's full-text search, behind one interface with one implementation per store (issue 16): SQLite's
 * FTS5 trigram and word indexes (sqlite-search.repository.ts), PostgreSQL's pg_trgm-indexed texts (postgres-search.repository.ts). The store chooses its
 * implementation by what it said it is when it opened (db/store-kind.ts), and repositories ask `searchOf(db)` for it,
 * with any connection or transaction of that store: they never ask which database they run on.
 *
 * What both share stays in contact-search.repository.ts: the texts a contact is indexed by (`indexedTexts`), the
 * prefix terms of short words (contact_search_terms, the same table on both), and how a search splits into words.
 */

const implementations: Record<StoreKind, ContactSearch> = { sqlite: sqliteSearch, postgres: postgresSearch };

/** The search implementation of the store `db` (a connection or a transaction) belongs to, as it said when it opened. */
export function searchOf(db: Db): ContactSearch {
  return implementations[storeKind(db)];
}
