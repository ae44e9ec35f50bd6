import type { Compilable, SelectQueryBuilder } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit } from '../../db/paging.js';
import { type Placeholder, type Placeholders, prepared } from '../../db/prepared.js';
import type { Contact, Database } from '../../db/schema.js';
import type { PageRow } from './contact-records.repository.js';

export type ContactQuery = SelectQueryBuilder<Database, 'contacts', object>;

/** A scope as a prepared query's values: the organisation, and for a team its members. */
export type ScopeParams = { orgId: number; memberIds?: number[] };
export const scopeParams = (scope: Scope): ScopeParams =>
  scope.kind === 'organisation' ? { orgId: scope.orgId } : { orgId: scope.orgId, memberIds: scope.memberIds };

/** Restricts a contacts query to what a scope may see: the organisation, or the owners of a team. */
export function inScope<Q extends ContactQuery>(query: Q, p: Placeholders<ScopeParams>): Q {
  const q = query.where('contacts.org_id', '=', p.orgId) as Q;
  return p.memberIds ? (q.where('contacts.owner_id', 'in', p.memberIds) as Q) : q;
}

/** A prepared look-up of those of some contacts a scope may see, in no particular order, reading what `pick` selects. */
function visible<Row>(name: string, pick: (query: ContactQuery) => Compilable<Row>) {
  const query = prepared<null, ScopeParams & { ids: number[] }, Row>(name, (db, _, p) =>
    pick(inScope(db.selectFrom('contacts'), p).where('id', 'in', p.ids)),
  );
  return async (db: Db, scope: Scope, ids: number[]): Promise<Row[]> => (ids.length ? query(db, null, { ...scopeParams(scope), ids }) : []);
}

export const findVisibleContacts = visible<Contact>('visible contacts', (q) => q.selectAll());

/** Their ids and versions only, for the record cache. */
export const findVisibleVersions = visible<PageRow>('visible contact versions', (q) => q.select(['contacts.id', 'contacts.version']));
/** A contact by id, whoever owns it: for work that follows from an earlier, scoped decision (a dial session's queue). */
export const findContactRow = (db: Db, id: number): Promise<Contact | undefined> =>
  db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();

/** Who a duplicate may belong to: some owners, or (without ownerIds) the whole organisation; and what it shares. */
type DuplicateParams = { orgId: number; ownerIds?: number[]; email?: string; phone?: string };

/*
 * Prepared: a bulk create (a dial session of 500 new contacts) checks each one, and building these joins each time
 * cost more than SQLite took to run them. The e-mail's and the phone's look-ups are one statement (each its own
 * subquery, from its own index): on PostgreSQL every statement is a round trip.
 */
const oldestWith = (db: Db, p: Placeholders<DuplicateParams>, table: 'contact_emails' | 'contact_phones', value: Placeholder<string>) => {
  const q = db
    .selectFrom(table)
    .innerJoin('contacts', 'contacts.id', `${table}.contact_id`)
    .select('contacts.id')
    .where(table === 'contact_emails' ? 'contact_emails.email_lc' : 'contact_phones.phone_number', '=', value)
    .where('contacts.org_id', '=', p.orgId)
    .where('contacts.trashed', '=', 0);
  return (p.ownerIds ? q.where('contacts.owner_id', 'in', p.ownerIds) : q).orderBy('contacts.id').limit(fixedLimit(1));
};
const oldestDuplicates = prepared<null, DuplicateParams, { by_email: number | null; by_phone: number | null }>(
  'duplicate by e-mail or phone',
  (db, _, p) =>
    db.selectNoFrom((eb) => [
      (p.email ? eb.selectFrom(oldestWith(db, p, 'contact_emails', p.email).as('e')).select('e.id') : eb.val(null)).as('by_email'),
      (p.phone ? eb.selectFrom(oldestWith(db, p, 'contact_phones', p.phone).as('p')).select('p.id') : eb.val(null)).as('by_phone'),
    ]),
);

/**
 * The oldest contact not in the trash among `ownerIds` (or the whole organisation) with this e-mail or phone.
 * Each look-up starts from the e-mail or phone index, so its cost does not grow with the owner's contacts. They
 * select only the id (most creates find nothing, and a wide row is costly to build), then read the one winner.
 */
export async function findDuplicate(db: Db, orgId: number, ownerIds: number[] | null, email: string | null, phone: string | null) {
  if (!email && !phone) return undefined;
  const [found] = await oldestDuplicates(db, null, {
    orgId,
    ...(ownerIds !== null && { ownerIds }),
    ...(email && { email }),
    ...(phone && { phone }),
  });
  const ids = [found?.by_email, found?.by_phone].filter((id): id is number => typeof id === 'number');
  if (!ids.length) return undefined;
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', Math.min(...ids))
    .executeTakeFirst();
}

/** Contacts a scope may see, not in the trash, with this e-mail (any case) or these phone digits: up to `limit`, oldest first. */
export async function findMatches(db: Db, scope: Scope, email: string | null, phone: string | null, limit: number): Promise<number[]> {
  if (!email && !phone) return [];
  let q = db
    .selectFrom('contacts')
    .select('contacts.id')
    .where('contacts.org_id', '=', scope.orgId)
    .where('contacts.trashed', '=', 0)
    .where((eb) =>
      eb.or([
        ...(email ? [eb('contacts.id', 'in', eb.selectFrom('contact_emails').select('contact_id').where('email_lc', '=', email))] : []),
        ...(phone ? [eb('contacts.id', 'in', eb.selectFrom('contact_phones').select('contact_id').where('phone_number', '=', phone))] : []),
      ]),
    );
  if (scope.kind === 'team') q = q.where('contacts.owner_id', 'in', scope.memberIds);
  return (await q.orderBy('contacts.id').limit(limit).execute()).map((r) => r.id);
}
