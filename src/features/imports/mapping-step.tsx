import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { customFieldsQueryOptions, type CustomField } from '../../api/custom-fields';
import { flattenFolders, foldersQueryOptions } from '../../api/folders';
import type { ImportColumn } from '../../api/imports';
import { Button } from '../../components/ui/button';
import { InlineSelect, SelectField, TextField } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { fieldLabel, fieldOptions, PHONE_TYPES } from './import-fields';
import { duplicateMessage, mappingFormSchema, type MappingFormValues } from './mapping-schema';
import { SavedMappings, SaveMappingDialog } from './saved-mappings';
import { ImportTable } from './import-table';

type Props = {
  columns: ImportColumn[];
  initial: MappingFormValues;
  onContinue: (values: MappingFormValues) => void;
  onCancel: () => void;
};

type RowProps = { column: ImportColumn; i: number; form: UseFormReturn<MappingFormValues>; customFields: CustomField[]; error?: string };

/** A column's sample values, one a line, each cut at `width` (the whole value in its title). */
function Samples({ values, width, className = '' }: { values: string[]; width: string; className?: string }) {
  return (
    <ul className={`space-y-0.5 ${className}`}>
      {values.map((s, k) => (
        <li key={k} className={`${width} truncate`} title={s}>
          {s}
        </li>
      ))}
    </ul>
  );
}

function ColumnRow({ column, i, form, customFields, error }: RowProps) {
  const field = useWatch({ control: form.control, name: `columns.${i}.field` });
  const suggested = column.suggestion?.field ?? null;
  const name = column.header || `Column ${column.index + 1}`;
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2 text-left font-medium text-zinc-900">
        {name}
        {/* On a small screen the samples' column is left out: the first two show under the column's name. */}
        {column.samples.length > 0 && (
          <Samples values={column.samples.slice(0, 2)} className="mt-0.5 font-normal text-zinc-500 sm:hidden" width="max-w-40" />
        )}
      </th>
      <td className="hidden px-3 py-2 text-zinc-600 sm:table-cell">
        {column.samples.length ? <Samples values={column.samples} width="max-w-56" /> : <span className="text-zinc-400">No values</span>}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap gap-2">
          <InlineSelect
            label={`Field for column ${name}`}
            hideLabel
            options={fieldOptions(customFields)}
            {...form.register(`columns.${i}.field`)}
          />
          {field === 'phone' && (
            <InlineSelect
              label={`Phone type for column ${name}`}
              hideLabel
              options={PHONE_TYPES}
              {...form.register(`columns.${i}.phone_type`)}
            />
          )}
        </div>
        {suggested && field === suggested && <p className="mt-1 text-xs text-emerald-700">Suggested from the column’s name</p>}
        {suggested && field !== suggested && <p className="mt-1 text-xs text-zinc-500">Suggested: {fieldLabel(suggested, customFields)}</p>}
        {error && (
          <p role="alert" className="mt-1 text-xs font-medium text-red-700">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}

/** Step 2: which field each column fills (the server's suggestions chosen to begin with), saved mappings, and defaults. */
export function MappingStep({ columns, initial, onContinue, onCancel }: Props) {
  const customFields = useQuery(customFieldsQueryOptions()).data ?? [];
  const folders = flattenFolders(useQuery(foldersQueryOptions()).data ?? []);
  const form = useForm<MappingFormValues>({ resolver: zodResolver(mappingFormSchema), defaultValues: initial });
  const [saving, setSaving] = useState(false);
  const { errors } = form.formState;
  const values = useWatch({ control: form.control, name: 'columns' });

  const rowError = (i: number) => {
    if (!errors.columns?.[i]?.field) return undefined;
    const field = values[i]?.field ?? '';
    const first = values.findIndex((c) => c.field === field);
    return duplicateMessage(field, columns[first], customFields);
  };
  const formProblems = errors.columns?.root?.message ?? errors.columns?.message;

  return (
    <>
      <form noValidate onSubmit={form.handleSubmit(onContinue)} className="space-y-4" aria-label="Map columns">
        <Section title="Map columns to fields" actions={<SavedMappings columns={columns} form={form} onSave={() => setSaving(true)} />}>
          <p className="mb-3 text-sm text-zinc-600">
            Each column of the file fills one field of a contact. Suggestions come from the columns’ names; change any of them, or leave a
            column out.
          </p>
          <FormAlert title="The mapping is not complete." messages={formProblems ? [formProblems] : []} />
          <ImportTable
            caption="Columns of the file and the field each fills"
            headings={['Column', { label: 'Sample values', wide: true }, 'Field']}
          >
            {columns.map((column, i) => (
              <ColumnRow key={column.index} column={column} i={i} form={form} customFields={customFields} error={rowError(i)} />
            ))}
          </ImportTable>
        </Section>
        <Section title="For every row">
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Folder"
              hint="Where rows go when the file has no folder column, or the row’s folder is empty."
              options={[
                { value: '', label: 'No folder' },
                ...folders.map((f) => ({ value: f.id, label: f.parentId ? `— ${f.name}` : f.name })),
              ]}
              {...form.register('folder_id')}
            />
            <TextField
              label="Tags to add"
              hint="Separated by commas, e.g. “Trade show, 2026”."
              autoComplete="off"
              error={errors.tags?.message}
              {...form.register('tags')}
            />
          </div>
        </Section>
        <div className="flex flex-wrap justify-end gap-2">
          <Button onClick={onCancel}>Choose another file</Button>
          <Button type="submit" variant="primary">
            Continue to preview
          </Button>
        </div>
      </form>
      {saving && <SaveMappingDialog columns={columns} form={form} onClose={() => setSaving(false)} />}
    </>
  );
}
