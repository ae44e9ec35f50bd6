import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { IntegrationRecord } from '../../../server/contracts/oauth';
import { useCreateIntegration, useUpdateIntegration } from '../../api/integrations';
import { TextareaField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formSchema, type Input, toBody } from './integration-form-schema';

const FIELDS: FieldMap<Input> = { name: { name: 'name', label: 'Name' }, redirect_uris: { name: 'redirect_uris', label: 'Redirect URIs' } };

/**
 * Registers an integration, or edits one's name and redirect URIs. Mounted when it opens, so it starts from its values.
 * A new integration's secret is handed to `onCreated` (shown once).
 */
export function IntegrationFormDialog({ integration, onClose, onCreated }: Props) {
  const create = useCreateIntegration();
  const update = useUpdateIntegration();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: integration?.name ?? '', redirect_uris: integration?.redirect_uris.join('\n') ?? '' },
  });
  const submit = handleSubmit(async ({ name, redirect_uris }) => {
    setProblems([]);
    const body = toBody({ name, redirect_uris });
    try {
      if (integration) {
        await update.mutateAsync({ id: integration.integration_id, ...body });
        announce(`Integration “${name}” saved`);
        onClose();
      } else onCreated(await create.mutateAsync(body));
    } catch (error) {
      setProblems(applyServerErrors(error, setError, FIELDS));
    }
  });
  const { errors } = formState;
  return (
    <FormDialog
      title={integration ? `Edit ${integration.name}` : 'Register an integration'}
      description="Members are sent back only to these exact addresses after they allow the integration."
      submitLabel={integration ? 'Save integration' : 'Register integration'}
      busy={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={submit}
      size="md"
    >
      <FormAlert title={integration ? 'The integration was not saved.' : 'The integration was not registered.'} messages={problems} />
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={100}
        error={errors.name?.message ? labelled('Name', errors.name.message, 'name') : undefined}
        {...register('name')}
      />
      <TextareaField
        label="Redirect URIs"
        hint="One address per line, exactly as the integration sends it."
        rows={3}
        error={errors.redirect_uris?.message ? labelled('Redirect URIs', errors.redirect_uris.message, 'redirect_uris') : undefined}
        {...register('redirect_uris')}
      />
    </FormDialog>
  );
}

type Props = { integration: IntegrationRecord | null; onClose: () => void; onCreated: (made: IntegrationRecord) => void };
