import { PHONE_TYPES } from '../../contracts/contacts.js';
import type { PhoneRecord } from '../../contracts/contact-details.js';
import type { ContactEmailRecord } from '../../contracts/contact-records.js';
import { ActivityType } from '../contacts/contact-history.repository.js';
import { formatPhone } from '../contacts/contacts.serializer.js';
import * as repo from './contact-points.repository.js';
import type { PointKind } from './contact-points.service.js';

/* E-mail addresses and phones, as contact-points.service.ts handles them, and as their sub-resources answer them. */

export type EmailEntry = { email_address: string };

export const EMAILS: PointKind<repo.EmailRow, EmailEntry> = {
  table: 'contact_emails',
  noun: 'e-mail address',
  activity: ActivityType.emailsChanged,
  dataTypes: { added: 'email_added', removed: 'email_removed', changed: 'email_changed', primary: 'email' },
  rows: repo.emailsOf,
  page: repo.pageOfEmails,
  keyOf: (e) => e.email_address.toLowerCase(),
  describe: (e) => e.email_address,
  spoken: (described) => described,
  columnValue: (row) => row.email_address,
  // Same key, other spelling: the address is written as the client gave it last.
  differs: (row, e) => row.email_address !== e.email_address,
  insert: (tx, contactId, e) => repo.insertEmail(tx, contactId, e.email_address),
  update: (tx, id, e) => repo.updateEmail(tx, id, e.email_address),
};

const typeName = (type: number) => PHONE_TYPES[type as keyof typeof PHONE_TYPES] ?? 'OTHER';

/** `3125550144 WORK "desk"` (the audit's record of a phone) as "(312) 555-0144 (work, desk)". */
export function spokenPhone(described: string): string {
  const match = /^(\d+) ([A-Z]+)(?: "(.*)")?$/.exec(described);
  if (!match) return described;
  const [, digits, type, label] = match;
  return `${formatPhone(digits!)} (${[type!.toLowerCase(), label].filter(Boolean).join(', ')})`;
}

export const PHONES: PointKind<repo.PhoneRow, repo.PhoneValues> = {
  table: 'contact_phones',
  noun: 'phone number',
  activity: ActivityType.phonesChanged,
  dataTypes: { added: 'phone_added', removed: 'phone_removed', changed: 'phone_changed', primary: 'phone' },
  rows: repo.phonesOf,
  page: repo.pageOfPhones,
  keyOf: (p) => p.phone_number,
  describe: (p) => `${p.phone_number} ${typeName(p.type)}${p.label ? ` "${p.label}"` : ''}`,
  spoken: spokenPhone,
  columnValue: (row) => row.phone_number,
  differs: (row, p) => row.phone_number !== p.phone_number || row.type !== p.type || row.label !== p.label,
  // Only the columns: a request's entry also carries is_primary, which the service sets on its own.
  insert: (tx, contactId, p) => repo.insertPhone(tx, contactId, { phone_number: p.phone_number, type: p.type, label: p.label }),
  update: (tx, id, p) => repo.updatePhone(tx, id, { phone_number: p.phone_number, type: p.type, label: p.label }),
};

export const emailRecord = (row: repo.EmailRow): ContactEmailRecord => ({
  id: row.id,
  email_address: row.email_address,
  is_primary: !!row.is_primary,
});

/** Digits in, formatted out: `phone_number` is formatted, `raw_phone` (extension) its digits. */
export const phoneRecord = (row: repo.PhoneRow): PhoneRecord => ({
  id: row.id,
  type: row.type,
  type_name: typeName(row.type),
  phone_number: formatPhone(row.phone_number),
  raw_phone: row.phone_number,
  label: row.label,
  is_primary: !!row.is_primary,
});
