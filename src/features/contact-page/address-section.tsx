import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { contactFields } from '../../../server/contracts/contacts';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { addressLines } from '../../lib/format';
import { localError, StaleNotice, useContactPage } from './contact-context';

/* The address fields of a contact update, as the API stores them (the record answers them as `primary_address`). */
const schema = z.object({
  address1: contactFields.shape.address1,
  address2: contactFields.shape.address2,
  city: contactFields.shape.city,
  state: contactFields.shape.state,
  zip: contactFields.shape.zip,
  country: contactFields.shape.country,
});
type Values = z.input<typeof schema>;
type Output = z.output<typeof schema>;
type Name = keyof Values;

const LABELS: Record<Name, string> = {
  address1: 'Street address',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'ZIP code',
  country: 'Country',
};
const FIELDS: FieldMap<Values> = Object.fromEntries(Object.entries(LABELS).map(([name, label]) => [name, { name: name as Name, label }]));

/** The contact's address, as the dialer shows it, with a way to change it. */
export function AddressSection() {
  const { contact } = useContactPage();
  const [editing, setEditing] = useState(false);
  const lines = addressLines(contact.primary_address);
  return (
    <Section
      title="Address"
      actions={
        <Button size="sm" onClick={() => setEditing(true)}>
          {lines.length ? 'Edit address' : 'Add address'}
        </Button>
      }
    >
      {lines.length ? (
        <address className="text-sm not-italic text-zinc-900">
          {lines.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </address>
      ) : (
        <p className="text-sm text-zinc-500">No address yet.</p>
      )}
      {editing && <AddressForm onClose={() => setEditing(false)} />}
    </Section>
  );
}

function AddressForm({ onClose }: { onClose: () => void }) {
  const { contact, save, saving } = useContactPage();
  const [problems, setProblems] = useState<string[]>([]);
  const a = contact.primary_address;
  const { register, handleSubmit, setError, formState } = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: {
      address1: a.address,
      address2: a.address_2,
      city: a.city,
      state: a.state || a.state_other,
      zip: a.zip,
      country: a.country,
    },
  });
  const { errors, dirtyFields } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setProblems([]);
    /* Only what changed; a field emptied is sent as '' and cleared. */
    const body = Object.fromEntries((Object.keys(LABELS) as Name[]).filter((k) => dirtyFields[k]).map((k) => [k, values[k] ?? '']));
    if (Object.keys(body).length === 0) return onClose();
    try {
      await save(body, 'Address saved');
      onClose();
    } catch (error) {
      if (localError(error)) setProblems(applyServerErrors(error, setError, FIELDS));
    }
  });

  const field = (name: Name, autoComplete: string) => {
    const text = errors[name]?.message;
    return (
      <TextField
        label={LABELS[name]}
        autoComplete={autoComplete}
        error={text ? labelled(LABELS[name], text, name) : undefined}
        {...register(name)}
      />
    );
  };

  return (
    <FormDialog title="Edit address" size="md" submitLabel="Save address" busy={saving} onClose={onClose} onSubmit={onSubmit}>
      <StaleNotice />
      <FormAlert title="The address was not saved." messages={problems} />
      {field('address1', 'address-line1')}
      {field('address2', 'address-line2')}
      <div className="grid gap-4 sm:grid-cols-3">
        {field('city', 'address-level2')}
        {field('state', 'address-level1')}
        {field('zip', 'postal-code')}
      </div>
      {field('country', 'country-name')}
    </FormDialog>
  );
}
