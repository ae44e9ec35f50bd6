import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import type { Contact } from '../../db/schema.js';

/** The contacts a scope may change that hold this number (as their primary or an additional phone). */
export async function contactsWithNumber(tx: Db, scope: Scope, digits: string): Promise<Contact[]> {
  let q = tx
    .selectFrom('contacts')
    .selectAll('contacts')
    .where('contacts.id', 'in', (eb) => eb.selectFrom('contact_phones').select('contact_id').where('phone_number', '=', digits))
    .where('contacts.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('contacts.owner_id', 'in', scope.memberIds);
  return q.execute();
}

/** Removes the number from these contacts; answers, per contact, the phone that is now its primary ('' for none). */
export async function removeNumber(tx: Db, contactIds: number[], digits: string): Promise<Map<number, string>> {
  await tx.deleteFrom('contact_phones').where('contact_id', 'in', contactIds).where('phone_number', '=', digits).execute();
  const left = await tx
    .selectFrom('contact_phones')
    .selectAll()
    .where('contact_id', 'in', contactIds)
    .orderBy('is_primary', 'desc')
    .orderBy('id')
    .execute();
  const primaries = new Map<number, string>(contactIds.map((id) => [id, '']));
  for (const phone of left) {
    if (primaries.get(phone.contact_id)) continue;
    primaries.set(phone.contact_id, phone.phone_number);
    // A contact whose primary number went keeps a primary: its next number in the order it was added.
    if (!phone.is_primary) await tx.updateTable('contact_phones').set({ is_primary: 1 }).where('id', '=', phone.id).execute();
  }
  return primaries;
}
