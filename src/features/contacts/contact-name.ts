import type { ContactRecord } from '../../../server/contracts/contact-records';
import { formatPhone, fullName } from '../../lib/format';

/** What to call a contact: its name, else its e-mail, else its phone. */
export function contactDisplayName(contact: Pick<ContactRecord, 'first_name' | 'last_name' | 'primary_email' | 'primary_phone'>): string {
  return (
    fullName(contact.first_name, contact.last_name) ||
    contact.primary_email?.email_address ||
    formatPhone(contact.primary_phone?.phone) ||
    'Unnamed contact'
  );
}
