import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import type { ContactEmailsTable, ContactPhonesTable } from '../../db/schema.js';

/*
 * A contact's e-mail addresses and phones (its "contact points"): a few rows each, so a change reads them all
 * and writes only the rows it changes. Both tables keep `is_primary`; the service keeps exactly one set.
 */

export type EmailRow = Selectable<ContactEmailsTable>;
export type PhoneRow = Selectable<ContactPhonesTable>;
export type PointTable = 'contact_emails' | 'contact_phones';

/** Every row of the contact, oldest first. */
export const emailsOf = (db: Db, contactId: number): Promise<EmailRow[]> =>
  db.selectFrom('contact_emails').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();

export const phonesOf = (db: Db, contactId: number): Promise<PhoneRow[]> =>
  db.selectFrom('contact_phones').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();

/** A page of the contact's rows as its record lists them: the primary first, then oldest first. */
export const pageOfEmails = (db: Db, contactId: number, page: PageRequest) =>
  paged(db.selectFrom('contact_emails').where('contact_id', '=', contactId), (q) => q.selectAll().orderBy('is_primary', 'desc').orderBy('id'), page);

export const pageOfPhones = (db: Db, contactId: number, page: PageRequest) =>
  paged(db.selectFrom('contact_phones').where('contact_id', '=', contactId), (q) => q.selectAll().orderBy('is_primary', 'desc').orderBy('id'), page);

export const insertEmail = (tx: Db, contactId: number, address: string): Promise<EmailRow> =>
  tx.insertInto('contact_emails')
    .values({ contact_id: contactId, email_address: address, email_lc: address.toLowerCase(), is_primary: 0 })
    .returningAll().executeTakeFirstOrThrow();

export const updateEmail = (tx: Db, id: number, address: string): Promise<EmailRow> =>
  tx.updateTable('contact_emails').set({ email_address: address, email_lc: address.toLowerCase() }).where('id', '=', id)
    .returningAll().executeTakeFirstOrThrow();

export type PhoneValues = { phone_number: string; type: number; label: string };

export const insertPhone = (tx: Db, contactId: number, values: PhoneValues): Promise<PhoneRow> =>
  tx.insertInto('contact_phones').values({ contact_id: contactId, ...values, is_primary: 0 }).returningAll().executeTakeFirstOrThrow();

export const updatePhone = (tx: Db, id: number, values: PhoneValues): Promise<PhoneRow> =>
  tx.updateTable('contact_phones').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/* Both tables share the columns used below (id, contact_id, is_primary); Kysely is told one name to type them. */
const pointTable = (table: PointTable) => table as 'contact_emails';

export async function deletePoints(tx: Db, table: PointTable, ids: number[]): Promise<void> {
  if (ids.length) await tx.deleteFrom(pointTable(table)).where('id', 'in', ids).execute();
}

/** Makes one row of the contact primary and the others not (`null`: none, the contact has no rows left). */
export async function setPrimary(tx: Db, table: PointTable, contactId: number, primaryId: number | null): Promise<void> {
  await tx.updateTable(pointTable(table))
    .set((eb) => ({ is_primary: eb.case().when('id', '=', primaryId ?? 0).then(1).else(0).end() }))
    .where('contact_id', '=', contactId).execute();
}
