import { z } from 'zod';
import { parseFlexibleDate } from '../../contracts/dates.js';
import { phoneDigits } from '../../contracts/contacts.js';
import type { ImportMapping, ImportPhoneType } from '../../contracts/imports.js';

/*
 * One staged row as a contact, by a mapping (docs/api.md, "Import"): pure, given what the team has (folders, custom
 * fields and their options, read once per chunk). A row is refused with a reason in words, or becomes a draft that the
 * job writes through the contacts module.
 */

export type CatalogField = { id: number; display_name: string; type_id: number; options: string[] };
export type ImportCatalog = {
  /** Folders by lower-case name. */
  folders: Map<string, { id: number; name: string }>;
  customFields: Map<number, CatalogField>;
};

export type DraftPhone = { digits: string; type: number };
export type Draft = {
  first_name: string;
  last_name: string;
  emails: string[];
  phones: DraftPhone[];
  address: { address1?: string; city?: string; state?: string; zip?: string; country?: string };
  folderId: number | null;
  tags: string[];
  notes: string[];
  do_not_call: boolean | undefined;
  custom: { field: CatalogField; value: string }[];
};

export type Mapped = { draft: Draft } | { refused: string };

const PHONE_TYPE: Record<ImportPhoneType, number> = { home: 1, work: 2, mobile: 3, other: 5 };
const MAX_LENGTH: Record<string, number> = {
  first_name: 100,
  last_name: 100,
  'address.street': 255,
  'address.city': 100,
  'address.state': 60,
  'address.zip': 20,
  'address.country': 100,
};
const YES = ['yes', 'y', 'true', '1', 'x', 'on'];
const NO = ['no', 'n', 'false', '0', '', 'off'];
/** Made once: a zod schema built per call cost more than the check. */
const EMAIL = z.email();
const isEmail = (v: string) => v.length <= 254 && EMAIL.safeParse(v).success;
const ADDRESS_KEY = {
  'address.street': 'address1',
  'address.city': 'city',
  'address.state': 'state',
  'address.zip': 'zip',
  'address.country': 'country',
} as const;

/** Our export prefixes a cell that would start a formula with ' (contact-csv.ts): an import takes it off again. */
export const unprotect = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell.trim());

/* eslint-disable-next-line no-control-regex -- a control character is refused, as the API refuses it */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const emptyDraft = (mapping: ImportMapping): Draft => ({
  first_name: '',
  last_name: '',
  emails: [],
  phones: [],
  address: {},
  folderId: mapping.folder_id ?? null,
  tags: [...(mapping.tags ?? [])],
  notes: [],
  do_not_call: undefined,
  custom: [],
});

/** A row as a draft, or the reason it is refused ("Row 12 ..."). */
export function mapRow(rowNo: number, fields: string[], headerLength: number, mapping: ImportMapping, catalog: ImportCatalog): Mapped {
  const refuse = (why: string): Mapped => ({ refused: `Row ${rowNo} ${why}` });
  if (fields.length > headerLength) return refuse(`has ${fields.length} fields; the header has ${headerLength}.`);
  const draft = emptyDraft(mapping);
  for (const column of mapping.columns) {
    if (!column.field) continue;
    const value = unprotect(fields[column.index] ?? '');
    if (!value) continue;
    if (CONTROL.test(value)) return refuse(`holds a control character in column ${column.index + 1}.`);
    const problem = apply(draft, column.field, value, column.phone_type, catalog);
    if (problem) return refuse(problem);
  }
  if (!draft.first_name && !draft.last_name && !draft.emails.length && !draft.phones.length)
    return refuse('has no name, e-mail address or phone number.');
  draft.emails = [...new Set(draft.emails.map((e) => e.toLowerCase()))].map((lc) => draft.emails.find((e) => e.toLowerCase() === lc)!);
  draft.phones = draft.phones.filter((p, i) => draft.phones.findIndex((q) => q.digits === p.digits) === i);
  draft.tags = [...new Map(draft.tags.map((t) => [t.toLowerCase(), t])).values()];
  return { draft };
}

/** Puts one cell into the draft; answers what is wrong with it, if anything (the rest of "Row N ..."). */
function apply(
  draft: Draft,
  field: string,
  value: string,
  phoneType: ImportPhoneType | undefined,
  catalog: ImportCatalog,
): string | undefined {
  const max = MAX_LENGTH[field];
  if (max !== undefined && value.length > max) return `has a ${field.replace('address.', '')} longer than ${max} characters.`;
  switch (field) {
    case 'first_name':
    case 'last_name':
      draft[field] = value;
      return;
    case 'full_name': {
      const at = value.lastIndexOf(' ');
      if (at < 0) draft.first_name ||= value;
      else {
        draft.first_name ||= value.slice(0, at).trim().slice(0, 100);
        draft.last_name ||= value.slice(at + 1).slice(0, 100);
      }
      return;
    }
    case 'email':
      for (const one of value.split(/[;,\s]+/).filter(Boolean)) {
        if (!isEmail(one)) return `has "${one}", which is not an e-mail address.`;
        draft.emails.push(one);
      }
      return;
    case 'phone': {
      const digits = phoneDigits(value);
      if (!/^\d{7,15}$/.test(digits)) return `has "${value}", which is not a phone number (7 to 15 digits).`;
      draft.phones.push({ digits, type: PHONE_TYPE[phoneType ?? 'other'] });
      return;
    }
    case 'folder': {
      const folder = catalog.folders.get(value.toLowerCase());
      if (!folder) return `names the folder "${value}", which your team does not have.`;
      draft.folderId = folder.id;
      return;
    }
    case 'tags':
      draft.tags.push(
        ...value
          .split(/[;,]/)
          .map((t) => t.trim().slice(0, 100))
          .filter(Boolean),
      );
      return;
    case 'notes':
      if (value.length > 20000) return 'has a note longer than 20,000 characters.';
      draft.notes.push(value);
      return;
    case 'do_not_call': {
      const v = value.toLowerCase();
      if (!YES.includes(v) && !NO.includes(v)) return `has "${value}" for do not call; use yes or no.`;
      draft.do_not_call = YES.includes(v);
      return;
    }
  }
  if (field in ADDRESS_KEY) {
    draft.address[ADDRESS_KEY[field as keyof typeof ADDRESS_KEY]] = value;
    return;
  }
  return customValue(draft, Number(field.slice('custom:'.length)), value, catalog);
}

function customValue(draft: Draft, id: number, value: string, catalog: ImportCatalog): string | undefined {
  const field = catalog.customFields.get(id);
  if (!field) return 'maps to a custom field that no longer exists.';
  const name = `"${field.display_name}"`;
  switch (field.type_id) {
    case 2: {
      const v = value.toLowerCase();
      if (!YES.includes(v) && !NO.includes(v)) return `has "${value}" for ${name}; use yes or no.`;
      draft.custom.push({ field, value: YES.includes(v) ? '1' : '0' });
      return;
    }
    case 3: {
      const date = parseFlexibleDate(value);
      if (!date) return `has "${value}" for ${name}, which is not a date.`;
      draft.custom.push({ field, value: date });
      return;
    }
    case 6: {
      const option = field.options.find((o) => o.toLowerCase() === value.toLowerCase());
      if (!option) return `has "${value}" for ${name}, which is not one of its options (${field.options.join(', ')}).`;
      draft.custom.push({ field, value: option });
      return;
    }
    case 7:
      if (!/^-?\d+(\.\d+)?$/.test(value)) return `has "${value}" for ${name}, which is not a number.`;
      draft.custom.push({ field, value });
      return;
    default:
      if (value.length > 5000) return `has a value for ${name} longer than 5,000 characters.`;
      draft.custom.push({ field, value });
  }
}
