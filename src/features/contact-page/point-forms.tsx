import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { addEmailBody, addPhoneBody } from '../../../server/contracts/contact-details';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { formatPhone } from '../../lib/format';
import { PHONE_TYPE_OPTIONS } from '../contacts/contact-form-schema';

/*
 * Adding or changing one phone or e-mail address, validated with the API's own schemas. `onSave` throws what the
 * server answered; field errors land under their field.
 */

type FormProps<O> = {
  mode: 'add' | 'edit';
  /** The entry being changed (edit), which also gives the form its values. */
  initial?: Partial<O>;
  onSave: (values: O) => Promise<void>;
  onCancel: () => void;
};

function Actions({ mode, noun, busy, onCancel }: { mode: 'add' | 'edit'; noun: string; busy: boolean; onCancel: () => void }) {
  return (
    <div className="flex justify-end gap-2 sm:col-span-full">
      <Button size="sm" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button size="sm" type="submit" variant="primary" busy={busy}>
        {mode === 'add' ? `Add ${noun}` : `Save ${noun}`}
      </Button>
    </div>
  );
}

type PhoneInput = z.input<typeof addPhoneBody>;
export type PhoneValues = z.output<typeof addPhoneBody>;
const PHONE_LABELS = { phone_number: 'Phone number', type: 'Type', label: 'Label', is_primary: 'Make it the primary number' } as const;
const PHONE_FIELDS: FieldMap<PhoneInput> = Object.fromEntries(
  Object.entries(PHONE_LABELS).map(([n, label]) => [n, { name: n as keyof PhoneInput, label }]),
);
const TYPE_OPTIONS = PHONE_TYPE_OPTIONS.filter((o) => o.value !== '');

export function PhoneForm({ mode, initial, onSave, onCancel }: FormProps<PhoneValues>) {
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<PhoneInput, unknown, PhoneValues>({
    resolver: zodResolver(addPhoneBody),
    defaultValues: {
      phone_number: initial?.phone_number ? formatPhone(initial.phone_number) : '',
      type: String(initial?.type ?? 3),
      label: initial?.label ?? '',
      is_primary: false,
    },
  });
  const message = (f: keyof typeof PHONE_LABELS) => {
    const m = formState.errors[f]?.message;
    return m ? labelled(PHONE_LABELS[f], m, f) : undefined;
  };
  const submit = handleSubmit(async (values) => {
    setProblems([]);
    try {
      await onSave(values);
    } catch (error) {
      setProblems(
        applyServerErrors(error, setError, PHONE_FIELDS, { conflictField: { name: 'phone_number', label: PHONE_LABELS.phone_number } }),
      );
    }
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={mode === 'add' ? 'Add a phone number' : 'Change the phone number'}
      className="grid gap-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 sm:grid-cols-3"
    >
      <div className="sm:col-span-full">
        <FormAlert title="The phone number was not saved." messages={problems} />
      </div>
      <TextField
        label={PHONE_LABELS.phone_number}
        type="tel"
        autoComplete="off"
        autoFocus
        error={message('phone_number')}
        {...register('phone_number')}
      />
      <SelectField label={PHONE_LABELS.type} options={TYPE_OPTIONS} error={message('type')} {...register('type')} />
      <TextField
        label={PHONE_LABELS.label}
        autoComplete="off"
        placeholder="e.g. Front desk"
        error={message('label')}
        {...register('label')}
      />
      {mode === 'add' && <Checkbox label={PHONE_LABELS.is_primary} className="sm:col-span-full" {...register('is_primary')} />}
      <Actions mode={mode} noun="phone" busy={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type EmailInput = z.input<typeof addEmailBody>;
export type EmailValues = z.output<typeof addEmailBody>;
const EMAIL_LABELS = { email_address: 'E-mail address', is_primary: 'Make it the primary address' } as const;
const EMAIL_FIELDS: FieldMap<EmailInput> = { email_address: { name: 'email_address', label: EMAIL_LABELS.email_address } };

export function EmailForm({ mode, initial, onSave, onCancel }: FormProps<EmailValues>) {
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<EmailInput, unknown, EmailValues>({
    resolver: zodResolver(addEmailBody),
    defaultValues: { email_address: initial?.email_address ?? '', is_primary: false },
  });
  const error = formState.errors.email_address?.message;
  const submit = handleSubmit(async (values) => {
    setProblems([]);
    try {
      await onSave(values);
    } catch (e) {
      setProblems(
        applyServerErrors(e, setError, EMAIL_FIELDS, { conflictField: { name: 'email_address', label: EMAIL_LABELS.email_address } }),
      );
    }
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={mode === 'add' ? 'Add an e-mail address' : 'Change the e-mail address'}
      className="grid gap-3 rounded-md border border-zinc-200 bg-zinc-50 p-3"
    >
      <FormAlert title="The e-mail address was not saved." messages={problems} />
      <TextField
        label={EMAIL_LABELS.email_address}
        type="email"
        autoComplete="off"
        autoFocus
        error={error ? labelled(EMAIL_LABELS.email_address, error, 'email_address') : undefined}
        {...register('email_address')}
      />
      {mode === 'add' && <Checkbox label={EMAIL_LABELS.is_primary} {...register('is_primary')} />}
      <Actions mode={mode} noun="e-mail" busy={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}
