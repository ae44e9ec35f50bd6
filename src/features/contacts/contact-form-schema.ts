/*
 * The contact form validates with the server's own contract schemas (contactFields, createContactBody),
 * so a value the form accepts is a value the API accepts. Only the shape of two inputs differs: tags are
 * typed as one comma-separated text, and "no phone type" is an empty select.
 */
import { z } from 'zod';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { contactFields, createContactBody, PHONE_TYPES } from '../../../server/contracts/contacts';
import { toDateInput, ratingValue } from '../../lib/format';

const splitTags = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export const contactFormSchema = contactFields
  .pick({
    first_name: true,
    last_name: true,
    email: true,
    phone: true,
    address1: true,
    address2: true,
    city: true,
    state: true,
    zip: true,
    country: true,
    category_id: true,
    rating: true,
    notes: true,
    consent_date: true,
  })
  .extend({
    phone_type: z.union([z.literal(''), contactFields.shape.phone_type.unwrap()]),
    tags: z.preprocess((v) => (typeof v === 'string' ? splitTags(v) : v), contactFields.shape.tags),
    allow_duplicates: createContactBody.shape.allow_duplicates,
  });

export type ContactFormInput = z.input<typeof contactFormSchema>;
export type ContactFormOutput = z.output<typeof contactFormSchema>;

/** Form values are the strings the inputs hold. */
export type ContactFormValues = {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  phone_type: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  category_id: string;
  rating: string;
  notes: string;
  consent_date: string;
  tags: string;
  allow_duplicates: boolean;
};

export type ContactFieldName = keyof ContactFormValues;

export const FIELD_LABELS: Record<ContactFieldName, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'E-mail',
  phone: 'Phone',
  phone_type: 'Phone type',
  address1: 'Address',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  country: 'Country',
  category_id: 'Folder',
  rating: 'Rating',
  notes: 'Add a note',
  consent_date: 'Consent date',
  tags: 'Tags',
  allow_duplicates: 'Allow duplicate',
};

export const PHONE_TYPE_OPTIONS = [
  { value: '', label: 'Not set' },
  ...Object.entries(PHONE_TYPES).map(([value, name]) => ({ value, label: name.charAt(0) + name.slice(1).toLowerCase() })),
];

export const RATING_OPTIONS = [
  { value: '', label: 'None' },
  ...[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n} ${n === 1 ? 'star' : 'stars'}` })),
];

export const emptyContactValues: ContactFormValues = {
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  phone_type: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  zip: '',
  country: '',
  category_id: '',
  rating: '',
  notes: '',
  consent_date: '',
  tags: '',
  allow_duplicates: false,
};

function primaryPhoneType(contact: ContactRecord): string {
  const primary = contact.phones?.find((p) => p.is_primary) ?? contact.phones?.[0];
  const type = primary ? String(primary.type) : contact.primary_phone?.type;
  return type && type in PHONE_TYPES ? type : '';
}

export function valuesFromContact(contact: ContactRecord): ContactFormValues {
  const address = contact.primary_address;
  const category = contact.category_id && contact.category_id !== '0' ? contact.category_id : '';
  const rating = ratingValue(contact.rating);
  return {
    ...emptyContactValues,
    first_name: contact.first_name ?? '',
    last_name: contact.last_name ?? '',
    email: contact.primary_email?.email_address ?? '',
    phone: contact.primary_phone?.phone ?? '',
    phone_type: contact.primary_phone?.phone ? primaryPhoneType(contact) : '',
    address1: address?.address ?? '',
    address2: address?.address_2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    country: address?.country ?? '',
    category_id: category,
    rating: rating ? String(rating) : '',
    consent_date: toDateInput(contact.consent_date),
  };
}

type WireBody = Record<string, unknown>;

/** Body of POST /rest/1/contacts: only what was filled in. */
export function createBodyFrom(values: ContactFormOutput): WireBody {
  const body: WireBody = {};
  const textFields = [
    'first_name',
    'last_name',
    'email',
    'phone',
    'address1',
    'address2',
    'city',
    'state',
    'zip',
    'country',
    'notes',
  ] as const;
  for (const key of textFields) {
    const value = values[key];
    if (value) body[key] = value;
  }
  if (values.phone && values.phone_type !== '') body.phone_type = values.phone_type;
  if (values.category_id) body.category_id = values.category_id;
  if (values.rating) body.rating = values.rating;
  if (values.consent_date) body.consent_date = values.consent_date;
  if (values.tags?.length) body.tags = values.tags;
  if (values.allow_duplicates) body.allow_duplicates = 1;
  return body;
}

/**
 * Body of PUT /rest/1/contacts/{id}: only the fields the user changed (a blank text clears it). Tags are
 * added, and a note is appended to the history, only when typed.
 */
export function updateBodyFrom(values: ContactFormOutput, dirty: Partial<Record<ContactFieldName, unknown>>): WireBody {
  const body: WireBody = {};
  const textFields = ['first_name', 'last_name', 'email', 'phone', 'address1', 'address2', 'city', 'state', 'zip', 'country'] as const;
  for (const key of textFields) {
    if (dirty[key]) body[key] = values[key] ?? '';
  }
  if ((dirty.phone || dirty.phone_type) && values.phone && values.phone_type !== '') body.phone_type = values.phone_type;
  /* '0' is the contract's "no folder". */
  if (dirty.category_id) body.category_id = values.category_id ?? 0;
  /* '' clears the rating: null would mean "not given". */
  if (dirty.rating) body.rating = values.rating ?? '';
  if (dirty.consent_date && values.consent_date) body.consent_date = values.consent_date;
  if (values.tags?.length) body.tags = values.tags;
  if (values.notes) body.notes = values.notes;
  return body;
}

/** Maps a wire field name from a 400 (e.g. 'email', 'tags.0') onto a form field. */
export function formFieldFor(wireField: string): ContactFieldName | null {
  const root = wireField.split('.')[0] ?? '';
  if (root === 'phone_label') return 'phone';
  if (root === 'folder_id') return 'category_id';
  return root in FIELD_LABELS ? (root as ContactFieldName) : null;
}

/** "email must be an e-mail address." → "E-mail must be an e-mail address." */
export function labelledMessage(field: ContactFieldName, message: string, wireField = field as string): string {
  const label = FIELD_LABELS[field];
  const trimmed = message.trim();
  if (trimmed.startsWith(`${wireField} `)) return `${label} ${trimmed.slice(wireField.length + 1)}`;
  if (/^[a-z]/.test(trimmed)) return `${label} ${trimmed}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
  return trimmed;
}
