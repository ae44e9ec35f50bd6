import type { AuthContext } from '../../auth/access.js';
import type { Store } from '../../db/database.js';
import { phoneDigits } from '../../contracts/contacts.js';
import { now } from '../../lib/time.js';
import { ActivityType, recordChange } from './contact-history.repository.js';
import { updateContactRow } from './contact-rows.repository.js';
import { formatPhone } from './contacts.serializer.js';
import { contactsWithNumber, removeNumber } from './phone-numbers.repository.js';

export type PhoneNumbersDeps = { store: Store };

/**
 * DELETE /rest/1/phonenumber/{phone_number}: the number goes from every contact the caller may change, primary and
 * additional alike, each with an audit record and an activity; a contact that loses its primary number takes its
 * next number as primary. Answers how many contacts changed (the route answers 204 either way).
 */
export async function deletePhoneNumber(ctx: PhoneNumbersDeps, auth: AuthContext, number: string): Promise<number> {
  const digits = phoneDigits(number);
  return ctx.store.write(async (tx) => {
    const contacts = await contactsWithNumber(tx, auth.scope, digits);
    if (!contacts.length) return 0;
    const primaries = await removeNumber(
      tx,
      contacts.map((c) => c.id),
      digits,
    );
    const at = now();
    for (const contact of contacts) {
      await updateContactRow(tx, contact, { changes: { phone: primaries.get(contact.id) ?? '' }, at, searchChanged: true });
      await recordChange(tx, {
        contactIds: [contact.id],
        memberId: auth.member.id,
        at,
        activity: ActivityType.updated,
        text: `Phone number ${formatPhone(digits)} removed`,
        audit: [{ action: 'delete', dataType: 'phone', old: digits, new: '' }],
      });
    }
    return contacts.length;
  });
}
