import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { newFieldFields } from '../../../server/contracts/custom-fields';
import { DEFINABLE_TYPES, useCreateField, useDeleteField, useUpdateField, type CustomField } from '../../api/custom-fields';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';
import { draftsOf, optionProblems, optionsBody, OptionsEditor, type OptionDraft } from './options-editor';

const schema = newFieldFields.pick({ display_name: true, type: true });
type Input = z.input<typeof schema>;
const LABELS = { display_name: 'Name', type: 'Type' } as const;
const FIELDS: FieldMap<Input> = {
  display_name: { name: 'display_name', label: LABELS.display_name },
  type: { name: 'type', label: LABELS.type },
};

/** A new definition (`field` null) or a new name for one; mounted each time it opens, so its form starts from its values. */
export function FieldDialog({ open, field, onClose }: { open: boolean; field: CustomField | null; onClose: () => void }) {
  return open ? <FieldForm key={field?.id ?? 'new'} field={field} onClose={onClose} /> : null;
}

function FieldForm({ field, onClose }: { field: CustomField | null; onClose: () => void }) {
  const create = useCreateField();
  const update = useUpdateField();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState, watch } = useForm<Input, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { display_name: field?.name ?? '', type: String(field && field.typeId !== 6 ? field.typeId : 1) },
  });
  const busy = formState.isSubmitting;
  const [options, setOptions] = useState<OptionDraft[]>(() => draftsOf([]));
  const dropDown = !field && String(watch('type')) === '6';

  const submit = handleSubmit(async (values) => {
    const local = dropDown ? optionProblems(options) : [];
    setProblems(local);
    if (local.length) return;
    try {
      if (field) await update.mutateAsync({ id: field.id, display_name: values.display_name });
      else await create.mutateAsync({ ...values, ...(dropDown && { options: optionsBody(options) }) });
      announce(field ? `Custom field renamed to ${values.display_name}` : `Custom field ${values.display_name} created`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, FIELDS, { conflictField: FIELDS.display_name }));
    }
  });
  const message = (f: keyof typeof LABELS) => {
    const m = formState.errors[f]?.message;
    return m ? labelled(LABELS[f], m, f) : undefined;
  };

  return (
    <FormDialog
      title={field ? `Rename the custom field ${field.name}` : 'New custom field'}
      description={
        field ? `The new name shows on the ${formatCount(field.contactCount, 'contact', 'contacts')} holding a value.` : undefined
      }
      submitLabel={field ? 'Rename field' : 'Create field'}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title={field ? 'The field was not renamed.' : 'The field was not created.'} messages={problems} />
      <TextField
        label={LABELS.display_name}
        required
        autoComplete="off"
        maxLength={100}
        error={message('display_name')}
        {...register('display_name')}
      />
      {!field && (
        <SelectField
          label={LABELS.type}
          options={DEFINABLE_TYPES.map((t) => ({ value: String(t.value), label: t.label }))}
          error={message('type')}
          {...register('type')}
        />
      )}
      {dropDown && <OptionsEditor drafts={options} onChange={setOptions} />}
    </FormDialog>
  );
}

export function DeleteFieldDialog({ field, onClose }: { field: CustomField | null; onClose: () => void }) {
  const count = field ? formatCount(field.contactCount, 'contact holds', 'contacts hold') : '';
  return (
    <DeleteDialog
      item={field}
      remove={useDeleteField()}
      idOf={(f) => f.id}
      title={(f) => `Delete the custom field ${f.name}?`}
      confirmLabel="Delete field"
      deleted={(f) => `Custom field ${f.name} deleted`}
      onClose={onClose}
    >
      {field && (
        <>
          <p>
            {`${count} a value for ${field.name}.`} Deleting the field removes those values for good: this cannot be undone, and they cannot
            be restored.
          </p>
          <p>A contact that names the field again later gets a new, empty field.</p>
        </>
      )}
    </DeleteDialog>
  );
}
