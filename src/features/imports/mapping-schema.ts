/*
 * The mapping form: one field per column ('' leaves the column out), a phone type for phone columns, the folder and
 * tags every row gets. A row needs a name, an e-mail or a phone to become a contact, so one of them must be mapped;
 * a field that holds one value is mapped to one column at most.
 */
import { z } from 'zod';
import type { CustomField } from '../../api/custom-fields';
import type { ImportColumn, ImportMapping, PhoneType, SavedMapping } from '../../api/imports';
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

const columnValues = (mapped: { field: string | null; phone_type?: PhoneType | undefined } | null | undefined) => ({
  field: mapped?.field ?? '',
  phone_type: mapped?.phone_type ?? ('mobile' as PhoneType),
});

/** The form's start: a mapping already chosen (a dry run went before), else the server's suggestions. */
export function initialValues(columns: ImportColumn[], mapping: ImportMapping | null): MappingFormValues {
  return {
    columns: columns.map((col) => columnValues(mapping ? mapping.columns.find((m) => m.index === col.index) : col.suggestion)),
    folder_id: mapping?.folder_id ? String(mapping.folder_id) : '',
    tags: (mapping?.tags ?? []).join(', '),
  };
}

const tagList = (text: string) =>
  text
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean);

const columnAt = (values: MappingFormValues, i: number) => values.columns[i] ?? { field: '', phone_type: 'mobile' as PhoneType };

type Field = ImportMapping['columns'][number]['field'];

/** Each column's field (null: not read), a phone type only for a phone; the folder and tags when given. */
function mapped(values: MappingFormValues, columns: ImportColumn[]) {
  const tags = tagList(values.tags);
  return {
    columns: columns.map((column, i) => {
      const { field, phone_type } = columnAt(values, i);
      return { column, field: (field || null) as Field, ...(field === 'phone' ? { phone_type } : {}) };
    }),
    folder_id: values.folder_id ? Number(values.folder_id) : undefined,
    tags: tags.length ? tags : undefined,
  };
}

export function toMapping(values: MappingFormValues, columns: ImportColumn[]): ImportMapping {
  const m = mapped(values, columns);
  return { ...m, columns: m.columns.map(({ column, ...rest }) => ({ index: column.index, ...rest })) };
}

/** A saved mapping is kept by header name: it fits any file whose columns have the same names, in any order. */
export function toSaved(values: MappingFormValues, columns: ImportColumn[]): SavedMapping {
  const m = mapped(values, columns);
  return { ...m, columns: m.columns.map(({ column, ...rest }) => ({ header: column.header, ...rest })) };
}

/** A saved mapping applied to this file: the columns it names by header, its folder and tags; the rest stays. */
export function fromSaved(saved: SavedMapping, columns: ImportColumn[], current: MappingFormValues): MappingFormValues {
  return {
    columns: columns.map((col, i) => {
      const named = saved.columns.find((c) => c.header.trim().toLowerCase() === col.header.trim().toLowerCase());
      return named ? columnValues(named) : columnAt(current, i);
    }),
    folder_id: saved.folder_id ? String(saved.folder_id) : current.folder_id,
    tags: saved.tags?.length ? saved.tags.join(', ') : current.tags,
  };
}

/** "E-mail is already the field for column Email 2": the second column mapped to a one-value field. */
export function duplicateMessage(field: string, first: ImportColumn | undefined, customFields: CustomField[]): string {
  return `${fieldLabel(field, customFields)} is already the field for column ${first?.header ?? 'another column'}; choose another field or “Don’t import”.`;
}
