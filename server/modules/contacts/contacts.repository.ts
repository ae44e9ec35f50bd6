import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { ContactSortColumn, ListContactsQuery } from '../../contracts/contacts.js';
import type { Db } from '../../db/database.js';
import type { Contact, Database } from '../../db/schema.js';
import { now } from '../../lib/time.js';

type ContactQuery = SelectQueryBuilder<Database, 'contacts', object>;
type Eb = ExpressionBuilder<Database, 'contacts'>;

/** Restricts a contacts query to what a scope may see: the organisation, or the owners of a team. */
export function inScope<Q extends ContactQuery>(query: Q, scope: Scope): Q {
  const q = query.where('contacts.org_id', '=', scope.orgId) as Q;
  return scope.kind === 'organisation' ? q : (q.where('contacts.owner_id', 'in', scope.memberIds) as Q);
}

export async function findVisibleContacts(db: Db, scope: Scope, ids: number[]): Promise<Contact[]> {
  if (!ids.length) return [];
  return inScope(db.selectFrom('contacts'), scope).selectAll().where('id', 'in', ids).execute();
}

/** The next term after every term that starts with `prefix`, for an index range instead of LIKE. */
const prefixEnd = (prefix: string) => prefix + '\uffff';

export function searchTerms(query: string): string[] {
  const lowered = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = lowered.replace(/[\s().+-]/g, '');
  return /^\d{3,}$/.test(digits) && digits !== lowered ? [lowered, digits.replace(/^1(?=\d{10}$)/, '')] : [lowered];
}

function applyFilters(query: ContactQuery, q: ListContactsQuery, scope: Scope): ContactQuery {
  let x = inScope(query, scope);
  if (!q.include_trashed) x = x.where('contacts.trashed', '=', 0);
  if (!q.include_archived) x = x.where('contacts.archived', '=', 0);
  const folderId = q.category_id ?? q.folder_id;
  if (folderId) x = x.where('contacts.folder_id', '=', folderId);
  if (q.updated_from) {
    x = x.where('contacts.updated_at', '>=', q.updated_from).where('contacts.updated_at', '<=', q.update_to ?? now());
    // Without include_new an updated_from search is about changes to contacts that already existed.
    if (!q.include_new) x = x.where('contacts.created_at', '<', q.updated_from);
  } else if (q.update_to) x = x.where('contacts.updated_at', '<=', q.update_to);
  if (q.created_from) x = x.where('contacts.created_at', '>=', q.created_from);
  if (q.created_to) x = x.where('contacts.created_at', '<=', q.created_to);
  if (q.email_address) {
    const email = q.email_address.toLowerCase();
    x = x.where('contacts.id', 'in', (eb: Eb) => eb.selectFrom('contact_emails').select('contact_id').where('email_lc', '=', email));
  }
  if (q.tag_id) {
    const tagId = q.tag_id;
    x = x.where('contacts.id', 'in', (eb: Eb) => eb.selectFrom('contact_tags').select('contact_id').where('tag_id', '=', tagId));
  }
  if (q.search) {
    const terms = searchTerms(q.search);
    x = x.where('contacts.id', 'in', (eb: Eb) =>
      eb
        .selectFrom('contact_search_terms')
        .select('contact_id')
        .where('org_id', '=', scope.orgId)
        .where((w) => w.or(terms.map((t) => w.and([w('term', '>=', t), w('term', '<', prefixEnd(t))])))),
    );
  }
  return x;
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

export async function listContacts(db: Db, scope: Scope, q: ListContactsQuery) {
  const direction = q.sort_order === 'ASC' ? 'asc' : 'desc';
  const column = SORT_COLUMNS[q.sort_by];
  let rows = applyFilters(db.selectFrom('contacts'), q, scope).selectAll('contacts').orderBy(`contacts.${column}`, direction);
  if (column !== 'id') rows = rows.orderBy('contacts.id', direction);
  const [page, count] = await Promise.all([
    rows.limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    applyFilters(db.selectFrom('contacts'), q, scope).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: page, total: Number(count.n) };
}

/**
 * Everything a contact record shows beyond its own row, for a non-empty list of contacts at once: one query
 * per table, never one per contact.
 */
export async function loadDetails(db: Db, contacts: Contact[]) {
  const ids = contacts.map((c) => c.id);
  const folderIds = [...new Set(contacts.map((c) => c.folder_id).filter((id): id is number => id !== null))];
  const [phones, emails, addresses, tags, customValues, notes, names, answers, social, crm, folders] = await Promise.all([
    db.selectFrom('contact_phones').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id').execute(),
    db.selectFrom('contact_emails').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id').execute(),
    db.selectFrom('contact_addresses').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id').execute(),
    db.selectFrom('contact_tags').innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
      .select(['contact_tags.contact_id', 'tags.id', 'tags.title']).where('contact_tags.contact_id', 'in', ids).orderBy('tags.title').execute(),
    db.selectFrom('contact_custom_values').innerJoin('custom_fields', 'custom_fields.id', 'contact_custom_values.custom_field_id')
      .select(['contact_custom_values.contact_id', 'custom_fields.id', 'custom_fields.display_name', 'custom_fields.type_id', 'contact_custom_values.value'])
      .where('contact_custom_values.contact_id', 'in', ids).orderBy('custom_fields.display_order').orderBy('custom_fields.id').execute(),
    db.selectFrom('contact_notes').leftJoin('members', 'members.id', 'contact_notes.author_id')
      .select(['contact_notes.contact_id', 'contact_notes.body', 'contact_notes.created_at', 'members.first_name', 'members.last_name', 'members.username'])
      .where('contact_notes.contact_id', 'in', ids).orderBy('contact_notes.id', 'desc').execute(),
    db.selectFrom('contact_names').selectAll().where('contact_id', 'in', ids).orderBy('id').execute(),
    db.selectFrom('contact_answers').selectAll().where('contact_id', 'in', ids).orderBy('id').execute(),
    db.selectFrom('contact_social_accounts').selectAll().where('contact_id', 'in', ids).orderBy('id').execute(),
    db.selectFrom('contact_crm_links').selectAll().where('contact_id', 'in', ids).orderBy('id').execute(),
    folderIds.length ? db.selectFrom('folders').selectAll().where('id', 'in', folderIds).execute() : Promise.resolve([]),
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
