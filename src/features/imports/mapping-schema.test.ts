import { describe, expect, it } from 'vitest';
import { importMapping, importMappingBody } from '../../../server/contracts/imports';
import type { ImportColumn } from '../../api/imports';
import { fromSaved, initialValues, mappingFormSchema, toMapping, toSaved, type MappingFormValues } from './mapping-schema';

const columns: ImportColumn[] = [
  { index: 0, header: 'Name', samples: ['Hans Müller'], suggestion: { field: 'full_name' } },
  { index: 1, header: 'E-mail', samples: ['hans@example.com'], suggestion: { field: 'email' } },
  { index: 2, header: 'Mobile', samples: ['312 555 0141'], suggestion: { field: 'phone', phone_type: 'mobile' } },
  { index: 3, header: 'Shoe size', samples: ['44'], suggestion: null },
];

const values = (fields: string[], extra: Partial<MappingFormValues> = {}): MappingFormValues => ({
  columns: fields.map((field) => ({ field, phone_type: 'work' })),
  folder_id: '',
  tags: '',
  ...extra,
});

describe('the mapping form', () => {
  it('starts from the suggestions, a column without one left out', () => {
    expect(initialValues(columns, null).columns.map((c) => [c.field, c.phone_type])).toEqual([
      ['full_name', 'mobile'],
      ['email', 'mobile'],
      ['phone', 'mobile'],
      ['', 'mobile'],
    ]);
  });

  it.each([
    [['', '', '', ''], 'Map at least one column to a name, an e-mail or a phone'],
    [['notes', 'tags', '', 'do_not_call'], 'Map at least one column to a name, an e-mail or a phone'],
  ])('refuses %j: %s', (fields, message) => {
    const result = mappingFormSchema.safeParse(values(fields));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('refuses a one-value field in two columns, but takes two e-mail columns', () => {
    const twice = mappingFormSchema.safeParse(values(['first_name', 'email', 'phone', 'first_name']));
    expect(twice.error?.issues.map((i) => i.path)).toEqual([['columns', 3, 'field']]);
    expect(mappingFormSchema.safeParse(values(['full_name', 'email', 'phone', 'email'])).success).toBe(true);
  });

  it('becomes a mapping the server accepts: a phone type only for phones, folder and tags when given', () => {
    const mapping = toMapping(values(['full_name', 'email', 'phone', ''], { folder_id: '4', tags: 'Fair; 2026, ' }), columns);
    expect(mapping).toEqual({
      columns: [
        { index: 0, field: 'full_name' },
        { index: 1, field: 'email' },
        { index: 2, field: 'phone', phone_type: 'work' },
        { index: 3, field: null },
      ],
      folder_id: 4,
      tags: ['Fair', '2026'],
    });
    expect(importMapping.safeParse(mapping).success).toBe(true);
  });

  it('saves by header name, and a saved mapping fills the columns of the same names in another order', () => {
    const saved = toSaved(values(['full_name', 'email', 'phone', ''], { tags: 'Fair' }), columns);
    expect(importMappingBody.safeParse({ name: 'Fair list', mapping: saved }).success).toBe(true);
    const reordered: ImportColumn[] = [
      { index: 0, header: 'mobile', samples: [], suggestion: null },
      { index: 1, header: 'Company', samples: [], suggestion: null },
      { index: 2, header: 'Name', samples: [], suggestion: null },
    ];
    const current = values(['', 'notes', '']);
    const applied = fromSaved(saved, reordered, current);
    expect(applied.columns.map((c) => c.field)).toEqual(['phone', 'notes', 'full_name']);
    expect(applied.tags).toBe('Fair');
  });
});
