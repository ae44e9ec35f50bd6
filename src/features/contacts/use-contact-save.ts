import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { contactMatchesQueryOptions, fetchVersioned, STALE_VERSION, useCreateContact, useUpdateContact } from '../../api/contacts';
import { ApiError, errorMessage } from '../../lib/api-client';
import type { ConflictState } from './conflict-review';
import {
  createBodyFrom,
  formFieldFor,
  labelledMessage,
  updateBodyFrom,
  type ContactFieldName,
  type ContactFormInput,
  type ContactFormOutput,
  type ContactFormValues,
} from './contact-form-schema';
import type { DuplicateReviewState } from './duplicate-review';

type Options = {
  contact: ContactRecord | undefined;
  etag: string | null | undefined;
  /** What the inputs hold (strings), for comparisons the user reads. */
  getValues: () => ContactFormValues;
  dirtyFields: Partial<Record<ContactFieldName, unknown>>;
  setError: UseFormSetError<ContactFormInput>;
  onSaved: (outcome: { message: string }) => void;
};

/**
 * Saving the contact form without losing or overwriting anything silently: a new contact that matches existing
 * ones waits for the user's choice (DuplicateReview); an update made against a version that is no longer current
 * is refused by the server and shown side by side (ConflictReview). Server validation lands on the fields.
 */
export function useContactSave({ contact, etag, getValues, dirtyFields, setError, onSaved }: Options) {
  const queryClient = useQueryClient();
  const createContact = useCreateContact();
  const updateContact = useUpdateContact();
  const [formError, setFormError] = useState<string[]>([]);
  const [duplicates, setDuplicates] = useState<DuplicateReviewState | null>(null);
  const [conflict, setConflict] = useState<ConflictState | null>(null);

  /* A new contact with the e-mail or phone of existing ones is never merged silently: the user chooses. */
  const findDuplicates = async (typed: ContactFormValues, body: ReturnType<typeof createBodyFrom>) => {
    if (!typed.email.trim() && !typed.phone.trim()) return false;
    const matches = await queryClient.fetchQuery(contactMatchesQueryOptions(typed.email.trim(), typed.phone.trim()));
    if (matches.length === 0) return false;
    setDuplicates({ matches, typed, body });
    return true;
  };

  const saveNew = async (values: ContactFormOutput) => {
    const typed = getValues();
    const body = createBodyFrom(values);
    if (await findDuplicates(typed, body)) return;
    /* 'skip': should a duplicate appear between the check and the save, nothing is overwritten; ask again. */
    const created = await createContact.mutateAsync({ ...body, on_duplicate: 'skip' });
    if (created.duplicate_action === 'skipped') {
      if (!(await findDuplicates(typed, body)))
        setFormError(['A contact with this e-mail or phone was added meanwhile. Save again to choose what to do.']);
      return;
    }
    onSaved({ message: 'Contact saved' });
  };

  const saveEdit = async (existing: ContactRecord, values: ContactFormOutput) => {
    const body = updateBodyFrom(values, dirtyFields);
    try {
      await updateContact.mutateAsync({ id: existing.contact_user_id, body, etag });
      onSaved({ message: 'Contact saved' });
    } catch (error) {
      if (!(error instanceof ApiError && error.hasCode(STALE_VERSION))) throw error;
      const current = await fetchVersioned(existing.contact_user_id);
      setConflict({ base: existing, current, typed: getValues(), dirty: { ...dirtyFields }, body });
    }
  };

  const showServerErrors = (error: unknown) => {
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
    } else {
      setFormError([errorMessage(error)]);
    }
  };

  const submit = async (values: ContactFormOutput) => {
    setFormError([]);
    try {
      if (contact) await saveEdit(contact, values);
      else await saveNew(values);
    } catch (error) {
      showServerErrors(error);
    }
  };

  const closeReview = () => {
    setDuplicates(null);
    setConflict(null);
  };

  return { submit, formError, duplicates, conflict, closeReview };
}
