import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { contactFields } from '../../../server/contracts/contacts';
import { Checkbox } from '../../components/ui/checkbox';
import { FormDialog } from '../../components/ui/form-dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { ratingValue } from '../../lib/format';
import { RATING_OPTIONS } from '../contacts/contact-form-schema';
import { localError, StaleNotice, useContactPage } from './contact-context';

const schema = z.object({
  first_name: contactFields.shape.first_name,
  last_name: contactFields.shape.last_name,
  rating: contactFields.shape.rating,
  do_not_call: z.boolean(),
});
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;

const LABELS = { first_name: 'First name', last_name: 'Last name', rating: 'Rating', do_not_call: 'Do not call' } as const;
const FIELDS: FieldMap<Values> = Object.fromEntries(
  Object.entries(LABELS).map(([name, label]) => [name, { name: name as keyof Values, label }]),
);

/** The contact's own fields shown in the header: names, rating and do-not-call (saved with If-Match). */
export function DetailsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  /* Mounted each time it opens, so the form starts from the record on screen (a reset after mounting could drop typing). */
  return open ? <DetailsForm onClose={onClose} /> : null;
}

function DetailsForm({ onClose }: { onClose: () => void }) {
  const { contact, save, saving } = useContactPage();
  const [problems, setProblems] = useState<string[]>([]);
  const defaults = {
    first_name: contact.first_name ?? '',
    last_name: contact.last_name ?? '',
    rating: String(ratingValue(contact.rating) ?? ''),
    do_not_call: contact.do_not_call === '1',
  };
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
  });
  const { errors, dirtyFields } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setProblems([]);
    const body: Record<string, unknown> = {};
    if (dirtyFields.first_name) body.first_name = values.first_name ?? '';
    if (dirtyFields.last_name) body.last_name = values.last_name ?? '';
    /* '' clears the rating: null would mean "not given". */
    if (dirtyFields.rating) body.rating = values.rating ?? '';
    if (dirtyFields.do_not_call) body.do_not_call = values.do_not_call ? 1 : 0;
    if (Object.keys(body).length === 0) return onClose();
    try {
      await save(body, 'Contact details saved');
      onClose();
    } catch (error) {
      if (localError(error)) setProblems(applyServerErrors(error, setError, FIELDS));
    }
  });

  const message = (field: keyof typeof LABELS) => {
    const text = errors[field]?.message;
    return text ? labelled(LABELS[field], text, field) : undefined;
  };

  return (
    <FormDialog title="Edit details" size="md" submitLabel="Save details" busy={saving} onClose={onClose} onSubmit={onSubmit}>
      <StaleNotice />
      <FormAlert title="The details were not saved." messages={problems} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={LABELS.first_name} autoComplete="off" error={message('first_name')} {...register('first_name')} />
        <TextField label={LABELS.last_name} autoComplete="off" error={message('last_name')} {...register('last_name')} />
      </div>
      <SelectField label={LABELS.rating} options={RATING_OPTIONS} error={message('rating')} {...register('rating')} />
      <Checkbox label={LABELS.do_not_call} hint="Dial sessions skip a contact marked do not call." {...register('do_not_call')} />
    </FormDialog>
  );
}
