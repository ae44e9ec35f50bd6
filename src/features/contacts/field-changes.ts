/*
 * Field-by-field comparison of contact values as the form holds them (strings), for the duplicate and conflict
 * reviews: what a record has, what the user typed, what someone else saved meanwhile.
 */
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { PHONE_TYPES } from '../../../server/contracts/contacts';
import { flattenFolders, type Folder } from '../../api/folders';
import { formatDate, formatPhone } from '../../lib/format';
import { FIELD_LABELS, valuesFromContact, type ContactFieldName, type ContactFormValues } from './contact-form-schema';

export const COMPARED_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_type',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'category_id',
  'rating',
  'consent_date',
] as const satisfies readonly ContactFieldName[];

export type ComparedField = (typeof COMPARED_FIELDS)[number];
export type ComparableValues = Pick<ContactFormValues, ComparedField>;

/** Values compare as the server stores them: e-mail without case, phones by digits, text trimmed. */
function normal(field: ComparedField, value: string | undefined): string {
  const v = (value ?? '').trim();
  if (field === 'email') return v.toLowerCase();
  if (field === 'phone') return v.replace(/\D/g, '').replace(/^1(\d{10})$/, '$1');
  return v;
}

export const sameValue = (field: ComparedField, a: string | undefined, b: string | undefined) => normal(field, a) === normal(field, b);

export function comparable(record: ContactRecord): ComparableValues {
  return valuesFromContact(record);
}

export function labelOf(field: ComparedField): string {
  return field === 'address1' ? 'Address' : FIELD_LABELS[field];
}

/** A value as people read it: folder names, star ratings, formatted phones; '—' for nothing. */
export function displayValue(field: ComparedField, value: string | undefined, folders: Folder[]): string {
  const v = (value ?? '').trim();
  if (!v) return '—';
  switch (field) {
    case 'category_id':
      return flattenFolders(folders).find((f) => f.id === v)?.name ?? 'A folder since deleted';
    case 'rating':
      return `${v} ${v === '1' ? 'star' : 'stars'}`;
    case 'phone':
      return formatPhone(v);
    case 'phone_type': {
      const name = PHONE_TYPES[Number(v) as keyof typeof PHONE_TYPES];
      return name ? name.charAt(0) + name.slice(1).toLowerCase() : v;
    }
    case 'consent_date':
      return formatDate(v, v);
    default:
      return v;
  }
}
