import { type ExpressionBuilder, sql } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { ContactSortColumn, ListContactsQuery } from '../../contracts/contacts.js';
import type { Db } from '../../db/database.js';
import { idsOfJson } from '../../db/dialect.js';
import { fixedLimit } from '../../db/paging.js';
import { PLAN_EACH_RUN, type Placeholders, prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { now } from '../../lib/time.js';
import type { PageRow } from './contact-records.repository.js';
import { indexedTexts, matchingIds, type SearchIndex } from './contact-search.repository.js';
import { holdsWords, type WordsQuery } from './contact-words.js';
import type { SearchParams } from './search/contact-search.js';
import { searchOf } from './search/search-index.js';
import { type ContactQuery, inScope, type ScopeParams, scopeParams } from './contacts.repository.js';

type Eb = ExpressionBuilder<Database, 'contacts'>;

/** Sorts by a column of the contact; by owner is a walk over the owners in name order (`listByOwner`). */
type ColumnSort = Exclude<ContactSortColumn, 'owner'>;

const SORT_COLUMNS: Record<ColumnSort, 'id' | 'updated_at' | 'first_name' | 'last_name' | 'email' | 'rating'> = {
  // Ids grow with creation time, so "date added" is the primary key order and needs no sort.
  date_added: 'id',
  date_modified: 'updated_at',
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email',
  rating: 'rating',
};

/** What changes a list query's SQL beyond which filter values it is given. */
type ListShape = { trashed: boolean; trashedOnly: boolean; archived: boolean; newToo: boolean; noFolder: boolean };
type ListParams = ScopeParams &
  SearchParams & {
    folderId?: number;
    updatedFrom?: string;
    updatedTo?: string;
    createdFrom?: string;
    createdTo?: string;
    email?: string;
    tagId?: number;
    /** The ids a search matched, as a JSON array, when they are few (`fewMatches`): they stand in for `searchMatch`. */
    matchIds?: string;
    /** Only contacts with a lower id: a cursor through a whole list (bulk jobs). */
    beforeId?: number;
    /** Only contacts with a higher id: the same cursor, oldest first (an export in that order). */
    afterId?: number;
  };

/**
 * What a list reads. `candidates`: a search with punctuation in a word that the word index can narrow down; the
 * params ask the trigram index (the exact answer), and `listContacts` first tries the candidates.
 */
type ListPlan = { shape: ListShape; params: ListParams; candidates?: WordsQuery };

function listPlan(db: Db, scope: Scope, q: ListContactsQuery): ListPlan {
  const params: ListParams = scopeParams(scope);
  const folderId = q.category_id ?? q.folder_id;
  if (folderId) params.folderId = folderId;
  if (q.updated_from) {
    params.updatedFrom = q.updated_from;
    params.updatedTo = q.update_to ?? now();
  } else if (q.update_to) params.updatedTo = q.update_to;
  if (q.created_from) params.createdFrom = q.created_from;
  if (q.created_to) params.createdTo = q.created_to;
  if (q.email_address) params.email = q.email_address.toLowerCase();
  if (q.tag_id) params.tagId = q.tag_id;
  let candidates: WordsQuery | undefined;
  if (q.search) {
    // The store's own search answers (search/): which indexes it reads, and how.
    const search = searchOf(db).plan(q.search, scope, q);
    Object.assign(params, search.params);
    candidates = search.candidates;
  }
  // Without include_new an updated_from search is about changes to contacts that already existed.
  const shape = {
    trashed: q.include_trashed,
    trashedOnly: q.only_trashed,
    archived: q.include_archived,
    newToo: !!q.include_new,
    noFolder: !!q.no_folder,
  };
  return candidates ? { shape, params, candidates } : { shape, params };
}

/** The filters of a list on a contacts query; `matched`: the query already reads only the search's matches. */
function applyFilters(db: Db, query: ContactQuery, s: ListShape, p: Placeholders<ListParams>, matched = false): ContactQuery {
  let x = inScope(query, p);
  if (s.trashedOnly) x = x.where('contacts.trashed', '=', 1);
  else if (!s.trashed) x = x.where('contacts.trashed', '=', 0);
  if (p.beforeId) x = x.where('contacts.id', '<', p.beforeId);
  if (p.afterId) x = x.where('contacts.id', '>', p.afterId);
  if (!s.archived) x = x.where('contacts.archived', '=', 0);
  if (p.folderId) x = x.where('contacts.folder_id', '=', p.folderId);
  if (s.noFolder) x = x.where('contacts.folder_id', 'is', null);
  if (p.updatedFrom) {
    x = x.where('contacts.updated_at', '>=', p.updatedFrom).where('contacts.updated_at', '<=', p.updatedTo!);
    if (!s.newToo) x = x.where('contacts.created_at', '<', p.updatedFrom);
  } else if (p.updatedTo) x = x.where('contacts.updated_at', '<=', p.updatedTo);
  if (p.createdFrom) x = x.where('contacts.created_at', '>=', p.createdFrom);
  if (p.createdTo) x = x.where('contacts.created_at', '<=', p.createdTo);
  const { email, tagId, searchMatch: match, wordsMatch: words, termStarts, termEnds, matchIds, likeTexts, likeNumbers } = p;
  if (likeTexts || likeNumbers) {
    const conditions = [
      ...(likeTexts ?? []).map((t) => sql`(names like ${t} or emails like ${t})`),
      ...(likeNumbers ?? []).map((n) => sql`phones like ${n}`),
    ];
    // A team's search names its owners: the index (owner and trigrams, search/postgres-search.repository.ts) answers only their contacts.
    if (p.memberIds) conditions.unshift(sql`owner_id in (${sql.join(p.memberIds)})`);
    x = x.where(
      'contacts.id',
      'in',
      sql<number>`(select contact_id from contact_search ${sql.raw(PLAN_EACH_RUN)} where ${sql.join(conditions, sql` and `)})`,
    );
  }
  if (match && !matched) x = x.where('contacts.id', 'in', (eb: Eb) => matchingIds(eb, 'contact_search', match));
  if (words && !matched) x = x.where('contacts.id', 'in', (eb: Eb) => matchingIds(eb, 'contact_words', words));
  // The list is one JSON parameter, so the statement has one shape however many ids there are (db/dialect.ts).
  if (matchIds) x = x.where('contacts.id', 'in', idsOfJson(db, matchIds));
  if (email)
    x = x.where('contacts.id', 'in', (eb: Eb) => eb.selectFrom('contact_emails').select('contact_id').where('email_lc', '=', email));
  if (tagId) x = x.where('contacts.id', 'in', (eb: Eb) => eb.selectFrom('contact_tags').select('contact_id').where('tag_id', '=', tagId));
  if (termStarts && termEnds) {
    x = x.where('contacts.id', 'in', (eb: Eb) =>
      eb
        .selectFrom('contact_search_terms')
        .select('contact_id')
        .where('org_id', '=', p.orgId)
        .where((w) => w.or(termStarts.map((start, i) => w.and([w('term', '>=', start), w('term', '<', termEnds[i]!)])))),
    );
  }
  return x;
}

type PageShape = ListShape & { sort: ColumnSort; direction: 'asc' | 'desc'; withTotal?: boolean };

/**
 * A page of a list's ids and versions. `withTotal` (a list whose total is a sum of kept counts, `isCounted`): each row
 * carries that sum too, in the same statement, an uncorrelated subquery the store runs once. The page and its total
 * were two statements, on PostgreSQL two round trips.
 */
const contactsPage = prepared<PageShape, ListParams & { limit: number; offset: number }, PageRow & { total?: number | null }>(
  'contacts page',
  (db, s, p) => {
    const column = SORT_COLUMNS[s.sort];
    let rows = applyFilters(db, db.selectFrom('contacts'), s, p)
      .select(['contacts.id', 'contacts.version'])
      .orderBy(`contacts.${column}`, s.direction);
    if (s.withTotal) rows = rows.select(countedSum(db, s, p).as('total'));
    if (column !== 'id') rows = rows.orderBy('contacts.id', s.direction);
    return rows.limit(p.limit).offset(p.offset);
  },
);

const contactsCount = prepared<ListShape, ListParams, { n: number }>('contacts count', (db, s, p) =>
  applyFilters(db, db.selectFrom('contacts'), s, p).select((eb) => eb.fn.countAll<number>().as('n')),
);

/** A search statement's shape names the index it reads, and each index is given its own query. */
type IndexShape = ListShape & { index: SearchIndex };
const queryFor = (index: SearchIndex, p: Placeholders<ListParams>) => (index === 'contact_words' ? p.wordsMatch : p.searchMatch);

/**
 * A search's matches as the query's driving table: FTS5 answers their rowids (in descending order when asked), and each
 * is looked up by primary key and checked against the scope and the other filters (the word index holds only the
 * scope's owners' contacts outside the trash and the archive, and the check makes the page right even if a row were not).
 */
const fromMatches = (db: Db, index: SearchIndex, match: Placeholders<ListParams>['searchMatch']): ContactQuery =>
  db
    .selectFrom(index)
    .innerJoin('contacts', 'contacts.id', `${index}.rowid`)
    .where(sql<boolean>`${sql.table(index)} match ${match}`) as unknown as ContactQuery;

/**
 * A search's page, newest first: read from its matches newest first, so a page costs about as many matches as it takes
 * to fill it, not every match (a common name matches tens of thousands of contacts of a million).
 */
const searchPage = prepared<IndexShape, ListParams & { limit: number; offset: number }, PageRow>('contacts search page', (db, s, p) =>
  applyFilters(db, fromMatches(db, s.index, queryFor(s.index, p)), s, p, true)
    .select(['contacts.id', 'contacts.version'])
    .orderBy(sql.ref(`${s.index}.rowid`), 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

/** A search's total is counted up to this many matches; past it, total_results says this many (docs/api.md). */
export const SEARCH_COUNT_LIMIT = 10_000;

const searchCount = prepared<IndexShape, ListParams, { n: number }>('contacts search count', (db, s, p) =>
  db
    .selectFrom(
      applyFilters(db, fromMatches(db, s.index, queryFor(s.index, p)), s, p, true)
        .select(sql.lit(1).as('one'))
        .limit(fixedLimit(SEARCH_COUNT_LIMIT))
        .as('m'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

/**
 * The total of a search the word index answers with no other filter: its matches are the scope's contacts outside the
 * trash and the archive, so counting them reads the index alone (the doclists of the words' tokens, not the contacts).
 */
const wordsCount = prepared<null, { wordsMatch: string }, { n: number }>('contacts word search count', (db, _, p) =>
  db
    .selectFrom(
      db
        .selectFrom('contact_words')
        .select(sql.lit(1).as('one'))
        .where(sql<boolean>`contact_words match ${p.wordsMatch}`)
        .limit(fixedLimit(SEARCH_COUNT_LIMIT))
        .as('m'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

/** A search by `like` patterns (PostgreSQL's trigram texts), counted up to SEARCH_COUNT_LIMIT like the others. */
const likeCount = prepared<ListShape, ListParams, { n: number }>('contacts like search count', (db, s, p) =>
  db
    .selectFrom(
      applyFilters(db, db.selectFrom('contacts'), s, p).select(sql.lit(1).as('one')).limit(fixedLimit(SEARCH_COUNT_LIMIT)).as('m'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

const WORDS_ONLY = new Set<string>(['orgId', 'memberIds', 'wordsMatch'] satisfies (keyof ListParams)[]);

/** The values of a list filtered only by scope, folder and state, whose total is a sum of kept counts. */
type CountedParams = Pick<ListParams, 'orgId' | 'memberIds' | 'folderId'>;
const COUNTED = new Set<string>(['orgId', 'memberIds', 'folderId'] satisfies (keyof CountedParams)[]);
const isCounted = (p: ListParams): p is CountedParams => Object.keys(p).every((name) => COUNTED.has(name));

/** The sum of kept counts that is a counted list's total (`isCounted`). */
function countedSum(db: Db, s: ListShape, p: Placeholders<CountedParams>) {
  let q = db
    .selectFrom('contact_counts')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .where('org_id', '=', p.orgId);
  if (p.memberIds) q = q.where('owner_id', 'in', p.memberIds);
  if (p.folderId) q = q.where('folder_key', '=', p.folderId);
  if (s.noFolder) q = q.where('folder_key', '=', 0);
  if (s.trashedOnly) q = q.where('trashed', '=', 1);
  else if (!s.trashed) q = q.where('trashed', '=', 0);
  if (!s.archived) q = q.where('archived', '=', 0);
  return q;
}

const countedTotal = prepared<ListShape, CountedParams, { n: number | null }>('contacts counted', countedSum);

/** A search matching at most this many contacts (in every organisation) is read from the index in its own order. */
export const FEW_MATCHES = 200;

/** The first matches of an index in its own (rowid) order, one more than FEW_MATCHES at most. */
const firstMatches = prepared<SearchIndex, { match: string }, { id: number }>('first search matches', (db, index, p) =>
  db
    .selectFrom(index)
    .select(sql<number>`rowid`.as('id'))
    .where(sql<boolean>`${sql.table(index)} match ${p.match}`)
    .limit(fixedLimit(FEW_MATCHES + 1)),
);

/**
 * A search that matches few contacts (a number, an address, a full name) is read from the index in rowid order, which
 * FTS5 does far faster than newest first (an e-mail 2.3 → 0.4 ms, a whole number 6.6 → 3.6 ms at a million contacts),
 * and its ids then filter the list like any other filter. Many matches keep the index read newest first, which stops
 * once the page is full.
 */
async function fewMatches(db: Db, params: ListParams): Promise<ListParams> {
  if (!params.searchMatch) return params;
  const ids = await firstMatches(db, 'contact_search', { match: params.searchMatch });
  if (ids.length > FEW_MATCHES) return params;
  const { searchMatch: _, ...rest } = params;
  return { ...rest, matchIds: JSON.stringify(ids.map((r) => r.id)) };
}

/**
 * A search with punctuation in a word ("ethan.murphy.12", an address pasted whole) by a scope the word index answers:
 * the index's candidates (those holding the word's parts), when they are few, are each checked for the whole word in
 * their names and addresses, and the ones that hold it filter the list as `fewMatches` would (an address: 3.3 ms of
 * trigrams at a million contacts, 0.1 ms this way). Many candidates: the trigram index answers.
 */
async function checkedCandidates(db: Db, plan: ListPlan & { candidates: WordsQuery }): Promise<ListParams> {
  const ids = await firstMatches(db, 'contact_words', { match: plan.candidates.match });
  if (ids.length > FEW_MATCHES) return fewMatches(db, plan.params);
  const texts = ids.length
    ? await indexedTexts(
        db,
        ids.map((r) => r.id),
      )
    : [];
  const held = texts.filter((t) => holdsWords(t.names, t.emails, plan.candidates.verify));
  const { searchMatch: _, ...rest } = plan.params;
  return { ...rest, matchIds: JSON.stringify(held.map((t) => t.id)) };
}

export async function listContacts(db: Db, scope: Scope, q: ListContactsQuery) {
  const plan = listPlan(db, scope, q);
  const { shape } = plan;
  const params = plan.candidates
    ? await checkedCandidates(db, { ...plan, candidates: plan.candidates })
    : await fewMatches(db, plan.params);
  if (q.sort_by === 'owner') return listByOwner(db, scope, q, shape, params);
  const page = { ...shape, sort: q.sort_by, direction: q.sort_order === 'ASC' ? 'asc' : 'desc' } as const;
  const window = { limit: q.page_size, offset: (q.page - 1) * q.page_size };
  const newest = q.sort_by === 'date_added' && page.direction === 'desc';
  const index = searchIndexOf(params);
  const withTotal = isCounted(params);
  const rows = await (newest && index
    ? searchPage(db, { ...shape, index }, { ...params, ...window })
    : contactsPage(db, withTotal ? { ...page, withTotal } : page, { ...params, ...window }));
  // A page that is not full ends the list: its total is known without counting (a search for a number or an address
  // matched its one contact twice over, once for the page and once for the count).
  if (rows.length < window.limit && (rows.length > 0 || window.offset === 0)) return { rows, total: window.offset + rows.length };
  if (withTotal && rows.length) return { rows, total: Number((rows[0] as { total?: number | null }).total ?? 0) };
  const count = await totalOf(db, shape, params);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

/** Which full-text index a list's search reads its matches from, if it reads one. */
const searchIndexOf = (params: ListParams): SearchIndex | undefined =>
  params.wordsMatch ? 'contact_words' : params.searchMatch ? 'contact_search' : undefined;

/** A list's total: a sum of kept counts when its filters allow, a search's matches up to SEARCH_COUNT_LIMIT, else a count. */
function totalOf(db: Db, shape: ListShape, params: ListParams) {
  const index = searchIndexOf(params);
  if (index === 'contact_words' && !shape.noFolder && Object.keys(params).every((name) => WORDS_ONLY.has(name)))
    return wordsCount(db, null, { wordsMatch: params.wordsMatch! });
  if (index) return searchCount(db, { ...shape, index }, params);
  if (params.likeTexts || params.likeNumbers) return likeCount(db, shape, params);
  return isCounted(params) ? countedTotal(db, shape, params) : contactsCount(db, shape, params);
}

/**
 * The next ids of a list, newest first, below `cursorId` (or from the top): a cursor through a whole filtered list
 * that stays right while the work it feeds changes what matches (bulk jobs). `asc`: oldest first, above `cursorId`.
 */
export async function nextIdsOfList(
  db: Db,
  scope: Scope,
  q: ListContactsQuery,
  cursorId: number | undefined,
  limit: number,
  direction: 'asc' | 'desc' = 'desc',
): Promise<number[]> {
  const { shape, params } = listPlan(db, scope, q);
  const cursor = cursorId ? (direction === 'desc' ? { beforeId: cursorId } : { afterId: cursorId }) : {};
  const rows = await contactsPage(db, { ...shape, sort: 'date_added', direction }, { ...params, ...cursor, limit, offset: 0 });
  return rows.map((r) => r.id);
}

/** How many contacts a list matches (its total_results). */
export async function countOfList(db: Db, scope: Scope, q: ListContactsQuery): Promise<number> {
  const { shape, params } = listPlan(db, scope, q);
  const count = isCounted(params) ? await countedTotal(db, shape, params) : await contactsCount(db, shape, params);
  return Number(count[0]?.n ?? 0);
}

const countedByOwner = prepared<ListShape, CountedParams, { owner_id: number; n: number }>('contacts counted per owner', (db, s, p) => {
  let q = db
    .selectFrom('contact_counts')
    .select((eb) => ['owner_id', eb.fn.sum<number>('n').as('n')])
    .where('org_id', '=', p.orgId)
    .groupBy('owner_id');
  if (p.memberIds) q = q.where('owner_id', 'in', p.memberIds);
  if (p.folderId) q = q.where('folder_key', '=', p.folderId);
  if (s.noFolder) q = q.where('folder_key', '=', 0);
  if (s.trashedOnly) q = q.where('trashed', '=', 1);
  else if (!s.trashed) q = q.where('trashed', '=', 0);
  if (!s.archived) q = q.where('archived', '=', 0);
  return q;
});

const countsByOwner = prepared<ListShape, ListParams, { owner_id: number; n: number }>('contacts per owner', (db, s, p) =>
  applyFilters(db, db.selectFrom('contacts'), s, p)
    .select((eb) => ['contacts.owner_id', eb.fn.countAll<number>().as('n')])
    .groupBy('contacts.owner_id'),
);

/** The owners a scope may see, by name (as their records show it), then id. */
const ownersByName = prepared<null, ScopeParams, { id: number }>('owners by name', (db, _, p) => {
  const q = db
    .selectFrom('members')
    .select('id')
    .where('org_id', '=', p.orgId)
    .orderBy((eb) =>
      eb.fn('lower', [
        eb.fn.coalesce(
          eb.fn('nullif', [eb.fn('trim', [eb(eb('first_name', '||', ' '), '||', eb.ref('last_name'))]), eb.val('')]),
          'username',
        ),
      ]),
    )
    .orderBy('id');
  return p.memberIds ? q.where('id', 'in', p.memberIds) : q;
});

/**
 * A page sorted by owner name: each owner's share of the list is counted (a sum of kept counts when the list allows,
 * else one grouped count), then the page is read owner by owner, newest first within each, from the index each
 * owner's contacts already have. No sort of the whole list, however long.
 */
async function listByOwner(db: Db, scope: Scope, q: ListContactsQuery, shape: ListShape, params: ListParams) {
  const [owners, counts] = await Promise.all([
    ownersByName(db, null, scopeParams(scope)),
    isCounted(params) ? countedByOwner(db, shape, params) : countsByOwner(db, shape, params),
  ]);
  const countOf = new Map(counts.map((c) => [c.owner_id, Number(c.n)]));
  const order = q.sort_order === 'ASC' ? owners : [...owners].reverse();
  let skip = (q.page - 1) * q.page_size;
  const rows: PageRow[] = [];
  for (const { id } of order) {
    const n = countOf.get(id) ?? 0;
    if (rows.length >= q.page_size) break;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const page = { ...shape, sort: 'date_added' as const, direction: 'desc' as const };
    rows.push(...(await contactsPage(db, page, { ...params, memberIds: [id], limit: q.page_size - rows.length, offset: skip })));
    skip = 0;
  }
  return { rows, total: [...countOf.values()].reduce((a, b) => a + b, 0) };
}
