import type { AuditRecord } from '../../../server/contracts/contact-records';
import { formatFieldValue, formatPhone } from '../../lib/format';

/* Audit records as people read them: what changed, in words, and old → new with ids turned into names. */

export type Names = {
  member: (id: string) => string;
  folder: (id: string) => string;
  customField: (id: string) => string;
  /** The field's type (1 text, 2 checkbox, 3 date, ...), when it still exists. */
  customFieldType: (id: string) => number | undefined;
};

/** A phone as the audit records it (`3125550144 WORK "desk"`) in words: "(312) 555-0144 (work, desk)". */
export function spokenPhone(value: string): string {
  const match = /^(\d+)(?: ([A-Z]+))?(?: "(.*)")?$/.exec(value);
  if (!match) return value;
  const [, digits, type, label] = match;
  const kind = [type?.toLowerCase(), label].filter(Boolean).join(', ');
  return `${formatPhone(digits)}${kind ? ` (${kind})` : ''}`;
}

const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Primary e-mail',
  phone: 'Primary phone',
  rating: 'Rating',
  do_not_call: 'Do not call',
  moved: 'Folder',
  transferred: 'Owner',
  tag_added: 'Tag added',
  tag_removed: 'Tag removed',
  email_added: 'E-mail added',
  email_removed: 'E-mail removed',
  email_changed: 'E-mail changed',
  phone_added: 'Phone added',
  phone_removed: 'Phone removed',
  phone_changed: 'Phone changed',
  call_result: 'Call result',
  consent_date: 'Consent date',
  address1: 'Address',
  address2: 'Address line 2',
  zip: 'Zip',
  time_zone: 'Time zone',
};

const WHOLE_RECORD: Record<string, string> = {
  'create/contact': 'Contact created',
  'trash/trashed': 'Moved to the trash',
  'restore/trashed': 'Restored from the trash',
  'delete/contact': 'Deleted',
};

const humanize = (key: string) => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function auditLabel(entry: AuditRecord, names: Names): string {
  const whole = WHOLE_RECORD[`${entry.action}/${entry.data_type}`];
  if (whole) return whole;
  const custom = entry.data_type.match(/^custom_field:(\d+)$/);
  if (custom) return names.customField(custom[1]!);
  return FIELD_LABELS[entry.data_type] ?? humanize(entry.data_type);
}

/** Old and new as shown, or null when the entry is not a change of value (created, trashed, restored). */
export function auditValues(entry: AuditRecord, names: Names): { old: string; new: string } | null {
  if (WHOLE_RECORD[`${entry.action}/${entry.data_type}`]) return null;
  const show = (value: string) => {
    if (entry.data_type === 'moved') return value === '0' || value === '' ? 'No folder' : names.folder(value);
    if (entry.data_type === 'transferred') return names.member(value);
    if (entry.data_type === 'do_not_call') return value === '1' ? 'Yes' : 'No';
    if (entry.data_type === 'rating') return value === '0' || value === '' ? 'Not rated' : `${value} of 5`;
    /* Phones are recorded as digits, followed by type and label when a number is added, changed or removed. */
    if (/^phone(_added|_removed|_changed)?$/.test(entry.data_type)) return value === '' ? '—' : spokenPhone(value);
    const custom = entry.data_type.match(/^custom_field:(\d+)$/);
    if (custom) return formatFieldValue(names.customFieldType(custom[1]!) ?? 1, value);
    return value === '' ? '—' : value;
  };
  return { old: show(entry.old), new: show(entry.new) };
}
