/*
 * The mapping form: one field per column ('' leaves the column out), a phone type for phone columns, the folder and
 * tags every row gets. A row needs a name, an e-mail or a phone to become a contact, so one of them must be mapped;
 * a field that holds one value is mapped to one column at most.
 */
import { z } from 'zod';
import type { CustomField } from '../../api/custom-fields';
import type { ImportColumn, ImportMapping, MappedColumn, PhoneType, SavedMappingRecord } from '../../api/imports';
import { fieldLabel, IDENTIFYING, REPEATABLE } from './import-fields';

const phoneType = z.enum(['mobile', 'work', 'home', 'other']);

export const mappingFormSchema = z
  .object({
    columns: z.array(z.object({ field: z.string(), phone_type: phoneType })),
    folder_id: z.string(),
    tags: z.string().max(500, { error: 'Tags may be 500 characters at most.' }),
  })
  .superRefine((value, ctx) => {
    if (!value.columns.some((c) => IDENTIFYING.has(c.field))) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: 'Map at least one column to a name, an e-mail or a phone: a row needs one of them to become a contact.',
      });
    }
    const seen = new Map<string, number>();
    value.columns.forEach((c, i) => {
      if (!c.field || REPEATABLE.has(c.field)) return;
      if (seen.has(c.field)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'field'], message: 'duplicate' });
      else seen.set(c.field, i);
    });
  });

export type MappingFormValues = z.infer<typeof mappingFormSchema>;

const columnValues = (mapped: MappedColumn | null | undefined) => ({
  field: mapped?.field ?? '',
  phone_type: (mapped?.phone_type ?? 'mobile') as PhoneType,
});

/** The form's start: a mapping already chosen (a dry run went before), else the server's suggestions. */
export function initialValues(columns: ImportColumn[], mapping: ImportMapping | null): MappingFormValues {
  return {
    columns: columns.map((col) => columnValues(mapping ? mapping.columns.find((m) => m.index === col.index) : col.suggestion)),
    folder_id: mapping?.folder_id ? String(mapping.folder_id) : '',
    tags: (mapping?.tags ?? []).join(', '),
  };
}

export function toMapping(values: MappingFormValues, columns: ImportColumn[]): ImportMapping {
  const tags = values.tags
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    columns: columns.map((col, i) => {
      const { field, phone_type } = values.columns[i] ?? { field: '', phone_type: 'mobile' };
      return field === 'phone' ? { index: col.index, field, phone_type } : { index: col.index, field: field || null };
    }),
    ...(values.folder_id ? { folder_id: Number(values.folder_id) } : {}),
    ...(tags.length ? { tags } : {}),
  };
}

/** A saved mapping is kept by header name: it fits any file whose columns have the same names, in any order. */
export function toSaved(values: MappingFormValues, columns: ImportColumn[]): SavedMappingRecord['mapping'] {
  const saved: SavedMappingRecord['mapping'] = {};
  columns.forEach((col, i) => {
    const { field, phone_type } = values.columns[i] ?? { field: '', phone_type: 'mobile' };
    saved[col.header] = field ? { index: col.index, field, ...(field === 'phone' ? { phone_type } : {}) } : null;
  });
  return saved;
}

/** A saved mapping's fields for this file's columns; a column it does not name keeps what it had. */
export function fromSaved(saved: SavedMappingRecord['mapping'], columns: ImportColumn[], current: MappingFormValues['columns']) {
  return columns.map((col, i) => (col.header in saved ? columnValues(saved[col.header]) : current[i]!));
}

/** "E-mail is already the field for column Email 2": the second column mapped to a one-value field. */
export function duplicateMessage(field: string, first: ImportColumn | undefined, customFields: CustomField[]): string {
  return `${fieldLabel(field, customFields)} is already the field for column ${first?.header ?? 'another column'}; choose another field or “Don’t import”.`;
}
