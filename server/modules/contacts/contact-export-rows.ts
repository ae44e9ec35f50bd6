import { PHONE_TYPES } from '../../contracts/contacts.js';
import type { ContactDetails, RecordRow } from './contact-records.repository.js';
import type { ExportField, OwnerName } from './contact-export.repository.js';

/*
 * The columns of a contacts export (docs/api.md, "Export"). The header is the same for every row and known before the
 * first one is read (the file is streamed): so a fixed number of e-mail and phone columns, each a column an import can
 * map on its own, and any more joined in one "Other" column.
 */

/** E-mails and phones with a column of their own (the primary one first); the rest share an "Other" column. */
export const EXPORT_EMAILS = 3;
export const EXPORT_PHONES = 3;

type Phone = ContactDetails['phones'][number];
type Email = ContactDetails['emails'][number];

/** One contact with its details, as a row is built from it. */
export type ExportContact = {
  row: RecordRow;
  phones: Phone[];
  emails: Email[];
  address: ContactDetails['addresses'][number] | undefined;
  tags: string[];
  notes: string[];
  custom: Map<number, string | null>;
  folder: string;
};

type Cell = string | number | null | undefined;
type Column = { header: string; cell: (c: ExportContact, owners: Map<number, string>) => Cell };

const phoneType = (p: Phone) => PHONE_TYPES[p.type as keyof typeof PHONE_TYPES] ?? 'OTHER';
const numbered = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

const COLUMNS: Column[] = [
  { header: 'ID', cell: (c) => c.row.id },
  { header: 'First name', cell: (c) => c.row.first_name },
  { header: 'Last name', cell: (c) => c.row.last_name },
  { header: 'Owner', cell: (c, owners) => owners.get(c.row.owner_id) ?? '' },
  { header: 'Folder', cell: (c) => c.folder },
  { header: 'Tags', cell: (c) => c.tags.join('; ') },
  ...numbered(EXPORT_EMAILS, (i) => ({ header: `E-mail ${i + 1}`, cell: (c: ExportContact) => c.emails[i]?.email_address })),
  {
    header: 'Other e-mails',
    cell: (c) =>
      c.emails
        .slice(EXPORT_EMAILS)
        .map((e) => e.email_address)
        .join('; '),
  },
  ...numbered(EXPORT_PHONES, (i) => [
    { header: `Phone ${i + 1}`, cell: (c: ExportContact) => c.phones[i]?.phone_number },
    { header: `Phone ${i + 1} type`, cell: (c: ExportContact) => (c.phones[i] ? phoneType(c.phones[i]) : '') },
  ]).flat(),
  {
    header: 'Other phones',
    cell: (c) =>
      c.phones
        .slice(EXPORT_PHONES)
        .map((p) => `${p.phone_number} (${phoneType(p)})`)
        .join('; '),
  },
  { header: 'Address', cell: (c) => c.address?.address },
  { header: 'Address 2', cell: (c) => c.address?.address_2 },
  { header: 'City', cell: (c) => c.address?.city },
  { header: 'State', cell: (c) => c.address?.state || c.address?.state_other },
  { header: 'Zip', cell: (c) => c.address?.zip },
  { header: 'Country', cell: (c) => c.address?.country },
  { header: 'Time zone', cell: (c) => c.row.time_zone },
  { header: 'Do not call', cell: (c) => (c.row.do_not_call ? 'yes' : 'no') },
  { header: 'Rating', cell: (c) => c.row.rating || '' },
  { header: 'Ad code', cell: (c) => c.row.ad_code },
  { header: 'Lead ID', cell: (c) => c.row.lead_id },
  { header: 'Consent date', cell: (c) => c.row.consent_date },
  { header: 'Date added', cell: (c) => c.row.created_at },
  { header: 'Date modified', cell: (c) => c.row.updated_at },
  { header: 'Last call', cell: (c) => c.row.last_call_time },
  { header: 'Total calls', cell: (c) => c.row.total_calls },
  { header: 'Notes', cell: (c) => c.notes.join('\n\n') },
];

/** The columns of an organisation's export: the fixed ones, then one per custom field. */
export function exportColumns(fields: ExportField[]): Column[] {
  const fixed = new Set(COLUMNS.map((c) => c.header.toLowerCase()));
  // A custom field named like a fixed column ("Notes") is told apart, so an import maps each header to one thing.
  const custom = fields.map((f) => ({
    header: fixed.has(f.display_name.toLowerCase()) ? `${f.display_name} (custom field)` : f.display_name,
    cell: (c: ExportContact) => c.custom.get(f.id),
  }));
  return [...COLUMNS, ...custom];
}

export const ownerLabels = (owners: OwnerName[]) =>
  new Map(owners.map((o) => [o.id, `${o.first_name} ${o.last_name}`.trim() || o.username]));

const byContact = <T extends { contact_id: number }>(rows: T[]) => {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.contact_id);
    if (list) list.push(row);
    else map.set(row.contact_id, [row]);
  }
  return map;
};

/** The contacts of a chunk with their details, in the order of `ids` (rows of contacts deleted meanwhile are left out). */
export function exportContacts(ids: number[], rows: RecordRow[], details: ContactDetails): ExportContact[] {
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const [phones, emails, addresses, tags, notes, custom] = [
    byContact(details.phones),
    byContact(details.emails),
    byContact(details.addresses),
    byContact(details.tags),
    byContact(details.notes),
    byContact(details.customValues),
  ];
  const folders = new Map(details.folders.map((f) => [f.id, f.name]));
  return ids.flatMap((id) => {
    const row = rowOf.get(id);
    if (!row) return [];
    return [
      {
        row,
        phones: phones.get(id) ?? [],
        emails: emails.get(id) ?? [],
        address: addresses.get(id)?.[0],
        tags: (tags.get(id) ?? []).map((t) => t.title),
        // Oldest first, as they were written.
        notes: (notes.get(id) ?? []).map((n) => n.body).reverse(),
        custom: new Map((custom.get(id) ?? []).map((v) => [v.id, v.value])),
        folder: row.folder_id === null ? '' : (folders.get(row.folder_id) ?? ''),
      },
    ];
  });
}

export type { Column as ExportColumn };
