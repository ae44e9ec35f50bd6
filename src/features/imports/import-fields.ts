import { REPEATABLE_IMPORT_FIELDS } from '../../../server/contracts/imports';
import type { CustomField } from '../../api/custom-fields';
import type { ImportFieldKey, PhoneType } from '../../api/imports';
import type { SelectOption } from '../../components/ui/select';

/** The fields a column can fill, in words (custom fields are added by their own names: a company or job title is one). */
const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name (split into first and last)',
  email: 'E-mail',
  phone: 'Phone',
  'address.street': 'Street address',
  'address.city': 'City',
  'address.state': 'State or region',
  'address.zip': 'ZIP or postal code',
  'address.country': 'Country',
  folder: 'Folder (by name)',
  tags: 'Tags (separated by commas or semicolons)',
  notes: 'Notes',
  do_not_call: 'Do not call (yes or no)',
};

/** Fields that may fill several columns (each adds one more e-mail or phone, or more tags or notes). */
export const REPEATABLE = new Set<string>(REPEATABLE_IMPORT_FIELDS);

/** A row needs one of these to become a contact. */
export const IDENTIFYING = new Set(['first_name', 'last_name', 'full_name', 'email', 'phone']);

export const PHONE_TYPES: { value: PhoneType; label: string }[] = [
  { value: 'mobile', label: 'Cell (mobile)' },
  { value: 'work', label: 'Work' },
  { value: 'home', label: 'Home' },
  { value: 'other', label: 'Other' },
];

const CUSTOM = 'custom:';

/** A field key in words; an unknown custom field (deleted since) says so rather than show its key. */
export function fieldLabel(key: ImportFieldKey | string | null, customFields: CustomField[]): string {
  if (!key) return 'Not imported';
  if (key.startsWith(CUSTOM)) {
    const field = customFields.find((f) => f.id === key.slice(CUSTOM.length));
    return field ? `${field.name} (custom field)` : 'A custom field that no longer exists';
  }
  return FIELD_LABELS[key] ?? 'Another field';
}

export const SKIP_VALUE = '';

/** The choices of a column's field select: "Don't import", the standard fields, then each custom field by name. */
export function fieldOptions(customFields: CustomField[]): SelectOption[] {
  return [
    { value: SKIP_VALUE, label: 'Don’t import this column' },
    ...Object.entries(FIELD_LABELS).map(([value, label]) => ({ value, label })),
    ...customFields.map((f) => ({ value: `${CUSTOM}${f.id}`, label: `${f.name} (custom field)` })),
  ];
}
