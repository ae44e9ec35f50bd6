import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { VersionedContact } from '../../api/contacts';
import { flattenFolders, type Folder } from '../../api/folders';
import { SelectField, TextareaField, TextField } from '../../components/ui/field';
import { ConflictReview } from './conflict-review';
import { DuplicateReview } from './duplicate-review';
import { useContactSave } from './use-contact-save';
import {
  contactFormSchema,
  emptyContactValues,
  FIELD_LABELS,
  labelledMessage,
  PHONE_TYPE_OPTIONS,
  RATING_OPTIONS,
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
  /** The contact's version when the form read it: the update applies only if nobody changed it since. */
  etag?: string | null | undefined;
  folders: Folder[];
  /** After a conflict, the user chose to edit the current version instead of theirs. */
  onReload?: (current: VersionedContact) => void;
  onSaved: (outcome: SaveOutcome) => void;
  onPendingChange?: (pending: boolean) => void;
  /** Whether any field differs from what the form started with; false again when the form goes away. */
  onDirtyChange?: (dirty: boolean) => void;
};

export function ContactForm({ formId, contact, etag, folders, onSaved, onReload, onPendingChange, onDirtyChange }: ContactFormProps) {
  const isEdit = Boolean(contact);
  const historyId = useId();

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    getValues,
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

  const save = useContactSave({ contact, etag, getValues: () => getValues() as ContactFormValues, dirtyFields, setError, onSaved });
  const { formError, duplicates, conflict } = save;

  const onSubmit = handleSubmit(async (values) => {
    onPendingChange?.(true);
    try {
      await save.submit(values);
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
    folderOptions.push({ value: contact.category_id, label: contact.category?.name || 'A folder since deleted' });
  }

  const history = contact?.notes?.notes?.trim() ?? '';
  const currentTags = contact?.tags ?? [];

  return (
    <>
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
          <TextField
            label={FIELD_LABELS.email}
            type="email"
            autoComplete="off"
            error={errorFor('email')}
            className="sm:col-span-2"
            {...register('email')}
          />
          <TextField label={FIELD_LABELS.phone} type="tel" autoComplete="off" error={errorFor('phone')} {...register('phone')} />
          <SelectField
            label={FIELD_LABELS.phone_type}
            options={PHONE_TYPE_OPTIONS}
            error={errorFor('phone_type')}
            {...register('phone_type')}
          />
        </fieldset>

        <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <legend className="sr-only">Organisation</legend>
          <SelectField
            label={FIELD_LABELS.category_id}
            options={folderOptions}
            error={errorFor('category_id')}
            {...register('category_id')}
          />
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
              hint={
                isEdit
                  ? 'Separate tags with commas. They are added to the contact’s existing tags.'
                  : 'Separate tags with commas. Each tag is added to the contact.'
              }
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
          <TextField
            label={FIELD_LABELS.address1}
            autoComplete="off"
            error={errorFor('address1')}
            className="sm:col-span-6"
            {...register('address1')}
          />
          <TextField
            label={FIELD_LABELS.address2}
            autoComplete="off"
            error={errorFor('address2')}
            className="sm:col-span-6"
            {...register('address2')}
          />
          <TextField
            label={FIELD_LABELS.city}
            autoComplete="off"
            error={errorFor('city')}
            className="sm:col-span-3"
            {...register('city')}
          />
          <TextField
            label={FIELD_LABELS.state}
            autoComplete="off"
            error={errorFor('state')}
            className="sm:col-span-1"
            {...register('state')}
          />
          <TextField label={FIELD_LABELS.zip} autoComplete="off" error={errorFor('zip')} className="sm:col-span-2" {...register('zip')} />
          <TextField
            label={FIELD_LABELS.country}
            autoComplete="off"
            error={errorFor('country')}
            className="sm:col-span-6"
            {...register('country')}
          />
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
          <p className="text-xs text-zinc-500">
            If a contact with this e-mail or phone exists, you choose what happens before anything is saved.
          </p>
        )}
      </form>
      {duplicates && (
        <DuplicateReview
          review={duplicates}
          folders={folders}
          onBack={save.closeReview}
          onDone={(message) => {
            save.closeReview();
            onSaved({ message });
          }}
        />
      )}
      {conflict && (
        <ConflictReview
          conflict={conflict}
          folders={folders}
          onBack={save.closeReview}
          onReload={(current) => {
            save.closeReview();
            onReload?.(current);
          }}
          onApplied={(message) => {
            save.closeReview();
            onSaved({ message });
          }}
        />
      )}
    </>
  );
}
