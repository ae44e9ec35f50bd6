import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldError, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { messageFields } from '../../../server/contracts/content';
import {
  type ContentRecord,
  MERGE_FIELDS,
  MESSAGE_LIMITS,
  type MessageFields,
  useCreateMessage,
  useDeleteMessage,
  useUpdateMessage,
} from '../../api/content';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { TextareaField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, type FieldMap, FormAlert, labelled } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';

const LABELS = { display_name: 'Name', description: 'Description', subject: 'Subject', body: 'Message' } as const;
const SERVER_FIELDS: FieldMap<MessageFields> = Object.fromEntries(
  Object.entries(LABELS).map(([wire, label]) => [wire, { name: wire as keyof MessageFields, label }]),
);

/** New (message null) or the member's own message: mounted each time it opens, so its form starts from the message. */
export function MessageDialog({ message, onClose }: { message: ContentRecord | null; onClose: () => void }) {
  const create = useCreateMessage();
  const update = useUpdateMessage();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<z.input<typeof messageFields>, unknown, MessageFields>({
    resolver: zodResolver(messageFields),
    defaultValues: message
      ? { display_name: message.display_name, description: message.description, subject: message.subject, body: message.body }
      : { display_name: '', description: '', subject: '', body: '' },
  });
  const submit = handleSubmit(async (fields) => {
    setProblems([]);
    try {
      const saved = message ? await update.mutateAsync({ id: message.message_id, fields }) : await create.mutateAsync(fields);
      announce(message ? `Message “${saved.display_name}” saved` : `Message “${saved.display_name}” created`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, SERVER_FIELDS));
    }
  });
  const errorOf = (key: keyof MessageFields, error: FieldError | undefined) =>
    error?.message ? labelled(LABELS[key], error.message, key) : undefined;
  const e = formState.errors;
  return (
    <FormDialog
      title={message ? `Edit the message ${message.display_name}` : 'New message'}
      description="E-mailed to a contact after a call, when a disposition is set to send it."
      size="lg"
      submitLabel={message ? 'Save message' : 'Create message'}
      busy={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The message was not saved." messages={problems} />
      <TextField
        label={LABELS.display_name}
        autoComplete="off"
        maxLength={MESSAGE_LIMITS.name}
        error={errorOf('display_name', e.display_name)}
        {...register('display_name')}
      />
      <TextField
        label={LABELS.description}
        autoComplete="off"
        maxLength={MESSAGE_LIMITS.description}
        hint="Optional: when to use it."
        error={errorOf('description', e.description)}
        {...register('description')}
      />
      <TextField
        label={LABELS.subject}
        autoComplete="off"
        maxLength={MESSAGE_LIMITS.subject}
        error={errorOf('subject', e.subject)}
        {...register('subject')}
      />
      <TextareaField label={LABELS.body} rows={7} maxLength={MESSAGE_LIMITS.body} error={errorOf('body', e.body)} {...register('body')} />
      <MergeFieldHelp />
    </FormDialog>
  );
}

/** The merge fields a subject and body may hold, as the server knows them. */
function MergeFieldHelp() {
  return (
    <details className="rounded-md border border-zinc-200 px-3 py-2 text-sm text-zinc-700">
      <summary className="cursor-pointer font-medium">Merge fields</summary>
      <p className="mt-2">Write a field in braces and it is replaced when the e-mail is sent, e.g. “Hi {'{first_name}'},”.</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {Object.entries(MERGE_FIELDS).map(([field, meaning]) => (
          <div key={field} className="contents">
            <dt>
              <code className="rounded bg-zinc-100 px-1">{`{${field}}`}</code>
            </dt>
            <dd>{meaning.charAt(0).toUpperCase() + meaning.slice(1)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function DeleteMessageDialog({ message, onClose }: { message: ContentRecord | null; onClose: () => void }) {
  return (
    <DeleteDialog
      item={message}
      remove={useDeleteMessage()}
      idOf={(m) => m.message_id}
      title={(m) => `Delete the message ${m.display_name}?`}
      confirmLabel="Delete message"
      deleted={(m) => `Message “${m.display_name}” deleted`}
      onClose={onClose}
    >
      <p>
        It leaves the library. A disposition set to send it sends nothing until another message is chosen; e-mails already on their way
        still go.
      </p>
    </DeleteDialog>
  );
}
