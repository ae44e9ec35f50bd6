import type { Db } from '../../db/database.js';
import type { Contact } from '../../db/schema.js';

/** The next term after every term that starts with `prefix`, for an index range instead of LIKE. */
export const prefixEnd = (prefix: string) => prefix + '\uffff';

export function searchTerms(query: string): string[] {
  const lowered = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = lowered.replace(/[\s().+-]/g, '');
  return /^\d{3,}$/.test(digits) && digits !== lowered ? [lowered, digits.replace(/^1(?=\d{10}$)/, '')] : [lowered];
}

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

