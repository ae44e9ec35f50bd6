import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import { prepared } from '../../db/prepared.js';
import type { ContactEmailsTable, ContactPhonesTable } from '../../db/schema.js';

/*
 * A contact's e-mail addresses and phones (its "contact points"): a few rows each, so a change reads them all
 * and writes only the rows it changes. Both tables keep `is_primary`; the service keeps exactly one set.
 */

export type EmailRow = Selectable<ContactEmailsTable>;
export type PhoneRow = Selectable<ContactPhonesTable>;
export type PointTable = 'contact_emails' | 'contact_phones';

/*
 * The reads and inserts below are prepared: integrations add phones and e-mails one request at a time, all day, and
 * building each statement had cost about what SQLite took to run it.
 */
const emailRows = prepared<null, { contactId: number }, EmailRow>('e-mails of a contact', (db, _, p) =>
  db.selectFrom('contact_emails').selectAll().where('contact_id', '=', p.contactId).orderBy('id'),
);
const phoneRows = prepared<null, { contactId: number }, PhoneRow>('phones of a contact', (db, _, p) =>
  db.selectFrom('contact_phones').selectAll().where('contact_id', '=', p.contactId).orderBy('id'),
);

/** Every row of the contact, oldest first. */
export const emailsOf = (db: Db, contactId: number): Promise<EmailRow[]> => emailRows(db, null, { contactId });

export const phonesOf = (db: Db, contactId: number): Promise<PhoneRow[]> => phoneRows(db, null, { contactId });

/** A page of the contact's rows as its record lists them: the primary first, then oldest first. */
export const pageOfEmails = (db: Db, contactId: number, page: PageRequest) =>
  paged(
    db.selectFrom('contact_emails').where('contact_id', '=', contactId),
    (q) => q.selectAll().orderBy('is_primary', 'desc').orderBy('id'),
    page,
  );

export const pageOfPhones = (db: Db, contactId: number, page: PageRequest) =>
  paged(
    db.selectFrom('contact_phones').where('contact_id', '=', contactId),
    (q) => q.selectAll().orderBy('is_primary', 'desc').orderBy('id'),
    page,
  );

type NewEmail = { contact_id: number; email_address: string; email_lc: string };
const emailInsert = prepared<null, NewEmail, EmailRow>('add an e-mail', (db, _, p) =>
  db
    .insertInto('contact_emails')
    .values({ ...p, is_primary: 0 })
    .returningAll(),
);

const inserted = <R>([row]: R[]): R => {
  if (!row) throw new Error('The row was not inserted.');
  return row;
};

export const insertEmail = async (tx: Db, contactId: number, address: string): Promise<EmailRow> =>
  inserted(await emailInsert(tx, null, { contact_id: contactId, email_address: address, email_lc: address.toLowerCase() }));

/** More e-mail addresses (not primary) for contacts, one statement: `insertEmail` for each. */
export async function insertEmails(tx: Db, emails: { contactId: number; address: string }[]): Promise<void> {
  for (let i = 0; i < emails.length; i += 500)
    await tx
      .insertInto('contact_emails')
      .values(
        emails
          .slice(i, i + 500)
          .map((e) => ({ contact_id: e.contactId, email_address: e.address, email_lc: e.address.toLowerCase(), is_primary: 0 })),
      )
      .execute();
}

export const updateEmail = (tx: Db, id: number, address: string): Promise<EmailRow> =>
  tx
    .updateTable('contact_emails')
    .set({ email_address: address, email_lc: address.toLowerCase() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export type PhoneValues = { phone_number: string; type: number; label: string };

const phoneInsert = prepared<null, PhoneValues & { contact_id: number }, PhoneRow>('add a phone', (db, _, p) =>
  db
    .insertInto('contact_phones')
    .values({ ...p, is_primary: 0 })
    .returningAll(),
);

export const insertPhone = async (tx: Db, contactId: number, values: PhoneValues): Promise<PhoneRow> =>
  inserted(await phoneInsert(tx, null, { contact_id: contactId, ...values }));

export const updatePhone = (tx: Db, id: number, values: PhoneValues): Promise<PhoneRow> =>
  tx.updateTable('contact_phones').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/* Both tables share the columns used below (id, contact_id, is_primary); Kysely is told one name to type them. */
const pointTable = (table: PointTable) => table as 'contact_emails';

export async function deletePoints(tx: Db, table: PointTable, ids: number[]): Promise<void> {
  if (ids.length) await tx.deleteFrom(pointTable(table)).where('id', 'in', ids).execute();
}

/** Makes one row of the contact primary and the others not (`null`: none, the contact has no rows left). */
export async function setPrimary(tx: Db, table: PointTable, contactId: number, primaryId: number | null): Promise<void> {
  await tx
    .updateTable(pointTable(table))
    .set((eb) => ({
      is_primary: eb
        .case()
        .when('id', '=', primaryId ?? 0)
        .then(1)
        .else(0)
        .end(),
    }))
    .where('contact_id', '=', contactId)
    .execute();
}
