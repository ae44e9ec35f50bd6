import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { useCreateContact, useUpdateContact } from '../../api/contacts';
import { flattenFolders, type Folder } from '../../api/folders';
import { Checkbox } from '../../components/ui/checkbox';
import { SelectField, TextareaField, TextField } from '../../components/ui/field';
import { ApiError, errorMessage } from '../../lib/api-client';
import {
  contactFormSchema,
  createBodyFrom,
  emptyContactValues,
  FIELD_LABELS,
  formFieldFor,
  labelledMessage,
  PHONE_TYPE_OPTIONS,
  RATING_OPTIONS,
  updateBodyFrom,
  valuesFromContact,
  type ContactFieldName,
  type ContactFormInput,
  type ContactFormOutput,
  type ContactFormValues,
} from './contact-form-schema';

/** First message anywhere under a field's error (tags report per item: tags.0, tags.1, ...). */
function messageOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string' && message) return message;
  for (const value of Object.values(error)) {
    if (value && typeof value === 'object' && value !== (error as { ref?: unknown }).ref) {
      const nested = messageOf(value);
      if (nested) return nested;
    }
  }
  return undefined;
}

export type SaveOutcome = { message: string };

type ContactFormProps = {
  formId: string;
  contact?: ContactRecord | undefined;
  folders: Folder[];
  onSaved: (outcome: SaveOutcome) => void;
  onPendingChange?: (pending: boolean) => void;
  /** Whether any field differs from what the form started with; false again when the form goes away. */
  onDirtyChange?: (dirty: boolean) => void;
};

export function ContactForm({ formId, contact, folders, onSaved, onPendingChange, onDirtyChange }: ContactFormProps) {
  const isEdit = Boolean(contact);
  const createContact = useCreateContact();
  const updateContact = useUpdateContact();
  const [formError, setFormError] = useState<string[]>([]);
  const historyId = useId();

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, dirtyFields, isDirty },
  } = useForm<ContactFormInput, unknown, ContactFormOutput>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: (contact ? valuesFromContact(contact) : emptyContactValues) satisfies ContactFormValues,
    mode: 'onTouched',
  });

  useEffect(() => {
    onDirtyChange?.(isDirty);
    return () => onDirtyChange?.(false);
  }, [isDirty, onDirtyChange]);

  /* The edit form appears after its record loads, once the dialog already has focus somewhere. */
  useEffect(() => setFocus('first_name'), [setFocus]);

  const errorFor = (field: ContactFieldName): string | undefined => {
    const message = messageOf((errors as FieldErrors<ContactFormValues>)[field]);
    return message ? labelledMessage(field, message) : undefined;
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError([]);
    onPendingChange?.(true);
    try {
      if (contact) {
        await updateContact.mutateAsync({ id: contact.contact_user_id, body: updateBodyFrom(values, dirtyFields) });
        onSaved({ message: 'Contact saved' });
      } else {
        const created = await createContact.mutateAsync(createBodyFrom(values));
        onSaved({
          message:
            created.duplicate_action === 'updated'
              ? 'An existing contact with this e-mail or phone was updated'
              : created.duplicate_action === 'skipped'
                ? 'A contact with this e-mail or phone already exists; it was left unchanged'
                : 'Contact saved',
        });
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.length > 0) {
        const unmapped: string[] = [];
        let focused = false;
        for (const entry of error.fieldErrors) {
          const field = formFieldFor(entry.field);
          if (field) {
            setError(field, { type: 'server', message: labelledMessage(field, entry.reason, entry.field) }, { shouldFocus: !focused });
            focused = true;
          } else unmapped.push(entry.reason);
        }
        const general = error.debugCodes.filter((d) => !d.field).map((d) => d.reason);
        setFormError([...general, ...unmapped]);
        if (!focused && unmapped.length === 0 && general.length === 0) setFormError([errorMessage(error)]);
      } else if (!(error instanceof ApiError && error.status === 401)) {
        setFormError([errorMessage(error)]);
      }
    } finally {
      onPendingChange?.(false);
    }
  });

  const folderOptions = [
    { value: '', label: 'No folder' },
    ...flattenFolders(folders).map((f) => ({ value: f.id, label: f.parentId ? `\u2003${f.name}` : f.name })),
  ];
  /* Keep a folder the list does not know (deleted meanwhile) selectable rather than silently dropping it. */
  if (contact && contact.category_id !== '0' && !folderOptions.some((o) => o.value === contact.category_id)) {
    folderOptions.push({ value: contact.category_id, label: contact.category?.name || `Folder ${contact.category_id}` });
  }

  const history = contact?.notes?.notes?.trim() ?? '';
  const currentTags = contact?.tags ?? [];

  return (
    <form id={formId} onSubmit={onSubmit} noValidate className="space-y-6">
      {formError.length > 0 && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">The contact was not saved.</p>
          <ul className="mt-1 list-disc pl-5">
            {formError.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {Object.keys(errors).length > 0 && formError.length === 0 && (
        <p role="alert" className="sr-only">
          Please correct the highlighted fields.
        </p>
      )}

      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <legend className="sr-only">Name and contact details</legend>
        <TextField label={FIELD_LABELS.first_name} autoComplete="off" error={errorFor('first_name')} {...register('first_name')} />
        <TextField label={FIELD_LABELS.last_name} autoComplete="off" error={errorFor('last_name')} {...register('last_name')} />
        <TextField label={FIELD_LABELS.email} type="email" autoComplete="off" error={errorFor('email')} className="sm:col-span-2" {...register('email')} />
        <TextField label={FIELD_LABELS.phone} type="tel" autoComplete="off" error={errorFor('phone')} {...register('phone')} />
        <SelectField label={FIELD_LABELS.phone_type} options={PHONE_TYPE_OPTIONS} error={errorFor('phone_type')} {...register('phone_type')} />
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <legend className="sr-only">Organisation</legend>
        <SelectField label={FIELD_LABELS.category_id} options={folderOptions} error={errorFor('category_id')} {...register('category_id')} />
        <SelectField label={FIELD_LABELS.rating} options={RATING_OPTIONS} error={errorFor('rating')} {...register('rating')} />
        <div className="sm:col-span-2">
          {isEdit && currentTags.length > 0 && (
            <div className="mb-2 flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
              <span>Current tags:</span>
              {currentTags.map((t) => (
                <span key={t.id} className="rounded-full bg-zinc-100 px-2 py-0.5 font-medium text-zinc-700">
                  {t.title}
                </span>
              ))}
            </div>
          )}
          <TextField
            label={FIELD_LABELS.tags}
            autoComplete="off"
            placeholder="e.g. hot lead, webinar"
            hint={isEdit ? 'Separate tags with commas. They are added to the contact’s existing tags.' : 'Separate tags with commas. Each tag is added to the contact.'}
            error={errorFor('tags')}
            {...register('tags')}
          />
        </div>
        <TextField
          label={FIELD_LABELS.consent_date}
          type="date"
          max={new Date().toISOString().slice(0, 10)}
          hint="A future or invalid date is ignored."
          error={errorFor('consent_date')}
          {...register('consent_date')}
        />
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-6">
        <legend className="mb-2 text-sm font-semibold text-zinc-900">Address</legend>
        <TextField label={FIELD_LABELS.address1} autoComplete="off" error={errorFor('address1')} className="sm:col-span-6" {...register('address1')} />
        <TextField label={FIELD_LABELS.address2} autoComplete="off" error={errorFor('address2')} className="sm:col-span-6" {...register('address2')} />
        <TextField label={FIELD_LABELS.city} autoComplete="off" error={errorFor('city')} className="sm:col-span-3" {...register('city')} />
        <TextField label={FIELD_LABELS.state} autoComplete="off" error={errorFor('state')} className="sm:col-span-1" {...register('state')} />
        <TextField label={FIELD_LABELS.zip} autoComplete="off" error={errorFor('zip')} className="sm:col-span-2" {...register('zip')} />
        <TextField label={FIELD_LABELS.country} autoComplete="off" error={errorFor('country')} className="sm:col-span-6" {...register('country')} />
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-zinc-900">Notes</legend>
        {isEdit && (
          <div>
            <h3 id={historyId} className="mb-1 text-sm font-medium text-zinc-700">
              Note history
            </h3>
            {history ? (
              <div
                role="region"
                aria-labelledby={historyId}
                tabIndex={0}
                className="max-h-40 overflow-y-auto rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm whitespace-pre-wrap text-zinc-700"
              >
                {history}
              </div>
            ) : (
              <p className="text-sm text-zinc-500">No notes yet.</p>
            )}
          </div>
        )}
        <TextareaField
          label={FIELD_LABELS.notes}
          rows={3}
          hint="The note is added to the contact’s history with today’s date and your name."
          error={errorFor('notes')}
          {...register('notes')}
        />
      </fieldset>

      {!isEdit && (
        <Checkbox
          label={FIELD_LABELS.allow_duplicates}
          hint="By default a contact with the same e-mail or phone is updated instead of added twice."
          {...register('allow_duplicates')}
        />
      )}
    </form>
  );
}
