import type { Compilable, ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { ContactSortColumn, ListContactsQuery } from '../../contracts/contacts.js';
import type { Db } from '../../db/database.js';
import { type Placeholder, type Placeholders, prepared } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';
import { now } from '../../lib/time.js';
import { DETAIL_KINDS } from './contact-writes.js';

type ContactQuery = SelectQueryBuilder<Database, 'contacts', object>;
type Eb = ExpressionBuilder<Database, 'contacts'>;

/** A scope as a prepared query's values: the organisation, and for a team its members. */
type ScopeParams = { orgId: number; memberIds?: number[] };
const scopeParams = (scope: Scope): ScopeParams =>
  scope.kind === 'organisation' ? { orgId: scope.orgId } : { orgId: scope.orgId, memberIds: scope.memberIds };

/** Restricts a contacts query to what a scope may see: the organisation, or the owners of a team. */
function inScope<Q extends ContactQuery>(query: Q, p: Placeholders<ScopeParams>): Q {
  const q = query.where('contacts.org_id', '=', p.orgId) as Q;
  return p.memberIds ? (q.where('contacts.owner_id', 'in', p.memberIds) as Q) : q;
}

/** A prepared look-up of those of some contacts a scope may see, in no particular order, reading what `pick` selects. */
function visible<Row>(name: string, pick: (query: ContactQuery) => Compilable<Row>) {
  const query = prepared<null, ScopeParams & { ids: number[] }, Row>(name, (db, _, p) =>
    pick(inScope(db.selectFrom('contacts'), p).where('id', 'in', p.ids)));
  return async (db: Db, scope: Scope, ids: number[]): Promise<Row[]> => (ids.length ? query(db, null, { ...scopeParams(scope), ids }) : []);
}

export const findVisibleContacts = visible<Contact>('visible contacts', (q) => q.selectAll());

/** Their ids and versions only, for the record cache. */
export const findVisibleVersions = visible<PageRow>('visible contact versions', (q) => q.select(['contacts.id', 'contacts.version']));

/** The next term after every term that starts with `prefix`, for an index range instead of LIKE. */
const prefixEnd = (prefix: string) => prefix + '\uffff';

export function searchTerms(query: string): string[] {
  const lowered = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = lowered.replace(/[\s().+-]/g, '');
  return /^\d{3,}$/.test(digits) && digits !== lowered ? [lowered, digits.replace(/^1(?=\d{10}$)/, '')] : [lowered];
}

const SORT_COLUMNS: Record<ContactSortColumn, 'id' | 'updated_at' | 'first_name' | 'last_name' | 'email' | 'rating'> = {
  // Ids grow with creation time, so "date added" is the primary key order and needs no sort.
  date_added: 'id',
  date_modified: 'updated_at',
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email',
  rating: 'rating',
};

/** What changes a list query's SQL beyond which filter values it is given. */
type ListShape = { trashed: boolean; archived: boolean; newToo: boolean };
type ListParams = ScopeParams & {
  folderId?: number; updatedFrom?: string; updatedTo?: string; createdFrom?: string; createdTo?: string; email?: string; tagId?: number;
  termStarts?: string[]; termEnds?: string[];
};

function listPlan(scope: Scope, q: ListContactsQuery): { shape: ListShape; params: ListParams } {
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
  if (q.search) {
    params.termStarts = searchTerms(q.search);
    params.termEnds = params.termStarts.map(prefixEnd);
  }
  // Without include_new an updated_from search is about changes to contacts that already existed.
  return { shape: { trashed: q.include_trashed, archived: q.include_archived, newToo: !!q.include_new }, params };
}

function applyFilters(query: ContactQuery, s: ListShape, p: Placeholders<ListParams>): ContactQuery {
  let x = inScope(query, p);
  if (!s.trashed) x = x.where('contacts.trashed', '=', 0);
  if (!s.archived) x = x.where('contacts.archived', '=', 0);
  if (p.folderId) x = x.where('contacts.folder_id', '=', p.folderId);
  if (p.updatedFrom) {
    x = x.where('contacts.updated_at', '>=', p.updatedFrom).where('contacts.updated_at', '<=', p.updatedTo!);
    if (!s.newToo) x = x.where('contacts.created_at', '<', p.updatedFrom);
  } else if (p.updatedTo) x = x.where('contacts.updated_at', '<=', p.updatedTo);
  if (p.createdFrom) x = x.where('contacts.created_at', '>=', p.createdFrom);
  if (p.createdTo) x = x.where('contacts.created_at', '<=', p.createdTo);
  const { email, tagId, termStarts, termEnds } = p;
  if (email) x = x.where('contacts.id', 'in', (eb: Eb) => eb.selectFrom('contact_emails').select('contact_id').where('email_lc', '=', email));
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

type PageShape = ListShape & { sort: ContactSortColumn; direction: 'asc' | 'desc' };

/** The columns of a contact that its record shows (contacts.serializer.ts), and its version (record-cache.ts). */
const RECORD_COLUMNS = [
  'id', 'owner_id', 'folder_id', 'first_name', 'last_name', 'original_ip', 'unique_id', 'ad_code', 'language', 'region', 'time_zone',
  'location_name', 'latitude', 'longitude', 'raw_zip', 'raw_phone', 'last_login', 'total_logins', 'points', 'do_not_call', 'call_result',
  'gender', 'date_of_birth', 'site_id', 'archived', 'trashed', 'removed', 'viewed', 'rating', 'contacted_at', 'consent_date', 'lead_id',
  'total_calls', 'last_call_time', 'detail_kinds', 'version', 'created_at', 'updated_at',
] as const;
export type RecordRow = Pick<Contact, (typeof RECORD_COLUMNS)[number]>;

/** A page is its contacts' ids and versions: their records mostly come from the record cache. */
export type PageRow = Pick<Contact, 'id' | 'version'>;

const contactsPage = prepared<PageShape, ListParams & { limit: number; offset: number }, PageRow>('contacts page', (db, s, p) => {
  const column = SORT_COLUMNS[s.sort];
  let rows = applyFilters(db.selectFrom('contacts'), s, p).select(['contacts.id', 'contacts.version'])
    .orderBy(`contacts.${column}`, s.direction);
  if (column !== 'id') rows = rows.orderBy('contacts.id', s.direction);
  return rows.limit(p.limit).offset(p.offset);
});

const contactsCount = prepared<ListShape, ListParams, { n: number }>('contacts count', (db, s, p) =>
  applyFilters(db.selectFrom('contacts'), s, p).select((eb) => eb.fn.countAll<number>().as('n')));

/** The values of a list filtered only by scope, folder and state, whose total is a sum of kept counts. */
type CountedParams = Pick<ListParams, 'orgId' | 'memberIds' | 'folderId'>;
const COUNTED = new Set<string>(['orgId', 'memberIds', 'folderId'] satisfies (keyof CountedParams)[]);
const isCounted = (p: ListParams): p is CountedParams => Object.keys(p).every((name) => COUNTED.has(name));

const countedTotal = prepared<ListShape, CountedParams, { n: number | null }>('contacts counted', (db, s, p) => {
  let q = db.selectFrom('contact_counts').select((eb) => eb.fn.sum<number>('n').as('n')).where('org_id', '=', p.orgId);
  if (p.memberIds) q = q.where('owner_id', 'in', p.memberIds);
  if (p.folderId) q = q.where('folder_key', '=', p.folderId);
  if (!s.trashed) q = q.where('trashed', '=', 0);
  if (!s.archived) q = q.where('archived', '=', 0);
  return q;
});

export async function listContacts(db: Db, scope: Scope, q: ListContactsQuery) {
  const { shape, params } = listPlan(scope, q);
  const page = { ...shape, sort: q.sort_by, direction: q.sort_order === 'ASC' ? 'asc' : 'desc' } as const;
  const [rows, count] = await Promise.all([
    contactsPage(db, page, { ...params, limit: q.page_size, offset: (q.page - 1) * q.page_size }),
    isCounted(params) ? countedTotal(db, shape, params) : contactsCount(db, shape, params),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

/** One prepared query over the rows of a list of contacts. */
const ofContacts = <Row>(name: string, build: (db: Db, ids: Placeholder<number>[]) => Compilable<Row>) => {
  const query = prepared<null, { ids: number[] }, Row>(name, (db, _shape, p) => build(db, p.ids));
  return (db: Db, ids: number[]) => query(db, null, { ids });
};

const detailQueries = {
  phones: ofContacts('contact phones', (db, ids) =>
    db.selectFrom('contact_phones').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id')),
  emails: ofContacts('contact emails', (db, ids) =>
    db.selectFrom('contact_emails').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id')),
  addresses: ofContacts('contact addresses', (db, ids) =>
    db.selectFrom('contact_addresses').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id')),
  tags: ofContacts('contact tags', (db, ids) =>
    db.selectFrom('contact_tags').innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
      .select(['contact_tags.contact_id', 'tags.id', 'tags.title']).where('contact_tags.contact_id', 'in', ids).orderBy('tags.title')),
  customValues: ofContacts('contact custom values', (db, ids) =>
    db.selectFrom('contact_custom_values').innerJoin('custom_fields', 'custom_fields.id', 'contact_custom_values.custom_field_id')
      .select(['contact_custom_values.contact_id', 'custom_fields.id', 'custom_fields.display_name', 'custom_fields.type_id', 'contact_custom_values.value'])
      .where('contact_custom_values.contact_id', 'in', ids).orderBy('custom_fields.display_order').orderBy('custom_fields.id')),
  notes: ofContacts('contact notes', (db, ids) =>
    db.selectFrom('contact_notes').leftJoin('members', 'members.id', 'contact_notes.author_id')
      .select(['contact_notes.contact_id', 'contact_notes.body', 'contact_notes.created_at', 'members.first_name', 'members.last_name', 'members.username'])
      .where('contact_notes.contact_id', 'in', ids).orderBy('contact_notes.id', 'desc')),
  names: ofContacts('contact names', (db, ids) => db.selectFrom('contact_names').selectAll().where('contact_id', 'in', ids).orderBy('id')),
  answers: ofContacts('contact answers', (db, ids) => db.selectFrom('contact_answers').selectAll().where('contact_id', 'in', ids).orderBy('id')),
  social: ofContacts('contact social accounts', (db, ids) =>
    db.selectFrom('contact_social_accounts').selectAll().where('contact_id', 'in', ids).orderBy('id')),
  crm: ofContacts('contact crm links', (db, ids) => db.selectFrom('contact_crm_links').selectAll().where('contact_id', 'in', ids).orderBy('id')),
  folders: ofContacts('contact folders', (db, ids) => db.selectFrom('folders').selectAll().where('id', 'in', ids)),
};

/** The rows of these contacts that their records are built from, in no particular order; deleted ones are left out. */
export const recordRows = ofContacts<RecordRow>('contact record rows', (db, ids) => db.selectFrom('contacts').select(RECORD_COLUMNS).where('id', 'in', ids));

/**
 * Everything a contact record shows beyond its own row, for a non-empty list of contacts at once: one query
 * per table, never one per contact, and none to a sparse table where no contact has its detail_kinds bit.
 */
export async function loadDetails(db: Db, contacts: Pick<Contact, 'id' | 'folder_id' | 'detail_kinds'>[]) {
  const ids = contacts.map((c) => c.id);
  const folderIds = [...new Set(contacts.map((c) => c.folder_id).filter((id): id is number => id !== null))];
  const kinds = contacts.reduce((all, c) => all | c.detail_kinds, 0);
  const q = detailQueries;
  const sparse = <Row>(kind: keyof typeof DETAIL_KINDS, load: (db: Db, ids: number[]) => Promise<Row[]>): Promise<Row[]> =>
    (kinds & DETAIL_KINDS[kind] ? load(db, ids) : Promise.resolve([]));
  const [phones, emails, addresses, tags, customValues, notes, names, answers, social, crm, folders] = await Promise.all([
    q.phones(db, ids), q.emails(db, ids), sparse('addresses', q.addresses), sparse('tags', q.tags), sparse('customValues', q.customValues),
    sparse('notes', q.notes), sparse('names', q.names), sparse('answers', q.answers), sparse('social', q.social), sparse('crm', q.crm),
    folderIds.length ? q.folders(db, folderIds) : Promise.resolve([]),
  ]);
  return { phones, emails, addresses, tags, customValues, notes, names, answers, social, crm, folders };
}

export type ContactDetails = Awaited<ReturnType<typeof loadDetails>>;

type SearchSource = Pick<Contact, 'id' | 'org_id' | 'first_name' | 'last_name'>;

/** A contact's search terms: names, full name, e-mail addresses and phone digits, lower-cased. */
export function termsOf(contact: SearchSource, emails: string[], phones: string[]): string[] {
  const first = contact.first_name.toLowerCase().trim();
  const last = contact.last_name.toLowerCase().trim();
  const terms = new Set([first, last, `${first} ${last}`.trim(), ...emails.map((e) => e.toLowerCase()), ...phones]);
  return [...terms].filter((t) => t.length > 0).map((t) => t.slice(0, 200));
}

export async function insertSearchTerms(db: Db, contact: SearchSource, emails: string[], phones: string[]) {
  const terms = termsOf(contact, emails, phones);
  if (!terms.length) return;
  await db
    .insertInto('contact_search_terms')
    .values(terms.map((term) => ({ org_id: contact.org_id, term, contact_id: contact.id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Replaces a contact's search terms with what its row, e-mails and phones hold now. */
export async function reindexSearch(db: Db, contact: SearchSource) {
  const [emails, phones] = await Promise.all([
    db.selectFrom('contact_emails').select('email_lc').where('contact_id', '=', contact.id).execute(),
    db.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', contact.id).execute(),
  ]);
  await db.deleteFrom('contact_search_terms').where('contact_id', '=', contact.id).execute();
  await insertSearchTerms(db, contact, emails.map((e) => e.email_lc), phones.map((p) => p.phone_number));
}

/**
 * The oldest contact not in the trash among `ownerIds` (or the whole organisation) with this e-mail or phone.
 * Each look-up starts from the e-mail or phone index, so its cost does not grow with the owner's contacts. They
 * select only the id (most creates find nothing, and a wide row is costly to build), then read the one winner.
 */
export async function findDuplicate(db: Db, orgId: number, ownerIds: number[] | null, email: string | null, phone: string | null) {
  const byEmail = email
    ? db.selectFrom('contact_emails').innerJoin('contacts', 'contacts.id', 'contact_emails.contact_id').select('contacts.id')
      .where('contact_emails.email_lc', '=', email).where('contacts.org_id', '=', orgId).where('contacts.trashed', '=', 0)
      .$if(ownerIds !== null, (q) => q.where('contacts.owner_id', 'in', ownerIds!))
      .orderBy('contacts.id').limit(1).executeTakeFirst()
    : undefined;
  const byPhone = phone
    ? db.selectFrom('contact_phones').innerJoin('contacts', 'contacts.id', 'contact_phones.contact_id').select('contacts.id')
      .where('contact_phones.phone_number', '=', phone).where('contacts.org_id', '=', orgId).where('contacts.trashed', '=', 0)
      .$if(ownerIds !== null, (q) => q.where('contacts.owner_id', 'in', ownerIds!))
      .orderBy('contacts.id').limit(1).executeTakeFirst()
    : undefined;
  const ids = (await Promise.all([byEmail, byPhone])).flatMap((row) => (row ? [row.id] : []));
  if (!ids.length) return undefined;
  return db.selectFrom('contacts').selectAll().where('id', '=', Math.min(...ids)).executeTakeFirst();
}
