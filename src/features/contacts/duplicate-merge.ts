/*
 * What "Update" in the duplicate review sends: the typed values as a contact update, except that a new phone number or
 * e-mail address goes beside the ones the contact has instead of replacing its primary (an update's `phone` and
 * `email` replace the primary; people keep both numbers).
 */
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactWriteBody } from '../../api/contacts';

const digitsOf = (v: string) => v.replace(/\D/g, '').replace(/^1(\d{10})$/, '$1');

export type DuplicateUpdate = {
  body: ContactWriteBody;
  /** An e-mail address to add beside the contact's own (the update body cannot add one). */
  addEmail?: string;
  /** How the phone and the e-mail were taken: `adds` goes beside the contact's own, `sets` is its first. */
  phone?: 'adds' | 'sets';
  email?: 'adds' | 'sets';
};

export function duplicateUpdateOf(current: ContactRecord, created: ContactWriteBody): DuplicateUpdate {
  const { phone, phone_type, phone_label, email, allow_duplicates: _, ...body } = created;
  const result: DuplicateUpdate = { body };
  if (typeof phone === 'string' && phone.trim()) {
    const numbers = (current.phones ?? []).map((p) => digitsOf(p.phone_number));
    if (!numbers.includes(digitsOf(phone))) {
      if (numbers.length === 0) {
        Object.assign(body, { phone, ...(phone_type !== undefined && { phone_type }), ...(phone_label !== undefined && { phone_label }) });
        result.phone = 'sets';
      } else {
        const extra = { number: phone, phone_type: phone_type ?? 5, ...(phone_label !== undefined && { phone_label }) };
        body.additional_phone = [...((body.additional_phone as unknown[] | undefined) ?? []), extra];
        result.phone = 'adds';
      }
    }
  }
  if (typeof email === 'string' && email.trim()) {
    const addresses = (current.emails ?? []).map((e) => e.email_address.toLowerCase());
    if (!addresses.includes(email.trim().toLowerCase())) {
      if (addresses.length === 0) {
        body.email = email;
        result.email = 'sets';
      } else {
        result.addEmail = email.trim();
        result.email = 'adds';
      }
    }
  }
  return result;
}
