import type { z } from 'zod';
import { type contactFields, phoneDigits } from '../../contracts/contacts.js';
import type { Contact, ContactUpdate } from '../../db/schema.js';
import type { AuditEntry } from './contact-history.repository.js';

/* What a create or update body asks of a contact's own row, compared with what the row holds. No store access. */

export type ContactInput = z.output<typeof contactFields>;

const COPIED = [
  'first_name',
  'last_name',
  'ad_code',
  'lead_id',
  'token',
  'return_lead_token',
  'order_number',
  'lead_vendor_product_name',
] as const;

/** The contact row's own columns that a body sets (children such as phones are written separately). */
export function columnChanges(body: ContactInput): ContactUpdate {
  const changes: ContactUpdate = {};
  for (const key of COPIED) if (body[key] !== undefined) changes[key] = body[key];
  if (body.viewed !== undefined) changes.viewed = body.viewed ? 1 : 0;
  if (body.rating !== undefined) changes.rating = body.rating ?? 0;
  if (body.consent_date !== undefined) changes.consent_date = body.consent_date;
  if (body.category_id !== undefined) changes.folder_id = body.category_id;
  if (body.phone !== undefined) changes.phone = phoneDigits(body.phone);
  if (body.email !== undefined) changes.email = body.email;
  if (body.do_not_call !== undefined) changes.do_not_call = body.do_not_call ? 1 : 0;
  if (body.time_zone !== undefined) changes.time_zone = body.time_zone;
  return changes;
}

/** Only the changes that differ from what the row holds: an update that changes nothing writes nothing. */
export function differing(before: Contact, changes: ContactUpdate): ContactUpdate {
  return Object.fromEntries(
    Object.entries(changes).filter(([column, value]) => (value ?? null) !== (before[column as keyof Contact] ?? null)),
  ) as ContactUpdate;
}

const AUDITED: Record<string, keyof Contact> = {
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email',
  phone: 'phone',
  rating: 'rating',
  viewed: 'viewed',
  consent_date: 'consent_date',
  ad_code: 'ad_code',
  lead_id: 'lead_id',
  order_number: 'order_number',
  do_not_call: 'do_not_call',
  time_zone: 'time_zone',
  call_result: 'call_result',
};

/** Audit records for every audited column whose value changes; a folder change is the contract's 'moved'. */
export function auditChanges(before: Contact, changes: ContactUpdate): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const [dataType, column] of Object.entries(AUDITED)) {
    const next = changes[column as keyof ContactUpdate];
    if (next !== undefined && String(next ?? '') !== String(before[column] ?? '')) {
      entries.push({ action: 'update', dataType, old: String(before[column] ?? ''), new: String(next ?? '') });
    }
  }
  if (changes.folder_id !== undefined && changes.folder_id !== before.folder_id) {
    entries.push({ action: 'update', dataType: 'moved', old: String(before.folder_id ?? 0), new: String(changes.folder_id ?? 0) });
  }
  if (changes.owner_id !== undefined && changes.owner_id !== before.owner_id) {
    entries.push({ action: 'update', dataType: 'transferred', old: String(before.owner_id), new: String(changes.owner_id) });
  }
  return entries;
}

/** The address fields a body gives. */
export function addressOf(body: ContactInput) {
  const fields = {
    address: body.address1,
    address_2: body.address2,
    city: body.city,
    state: body.state,
    state_other: body.state_other,
    zip: body.zip,
    country: body.country,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Record<keyof typeof fields, string>>;
}
