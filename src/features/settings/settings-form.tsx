import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldError, useForm } from 'react-hook-form';
import { DIALSECS_RANGE, type DialSettingsRecord, MESSAGE_KEYS, RETENTION_DAYS_RANGE } from '../../../server/contracts/dial-settings';
import { type LibraryMessage, useSaveDialSettings } from '../../api/dial-settings';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors, FormAlert, labelled } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { useStatus } from '../../components/ui/status-message';
import {
  CALL_WINDOW,
  FIELD_LABELS,
  MESSAGE_LABELS,
  SERVER_FIELDS,
  type SettingsForm,
  settingsFormSchema,
  toBody,
  toForm,
} from './settings-schema';

type Props = { settings: DialSettingsRecord; messages: LibraryMessage[]; vendor: boolean };

/** The member's dial settings, and for the vendor the organisation's recording settings: one form, one Save. */
export function SettingsFormView({ settings, messages, vendor }: Props) {
  const save = useSaveDialSettings();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, reset, formState } = useForm<SettingsForm>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: toForm(settings),
  });
  const errorOf = (error: FieldError | undefined, label: string, wire: string) =>
    error?.message ? labelled(label, error.message, wire) : undefined;
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    setProblems([]);
    try {
      reset(toForm(await save.mutateAsync(toBody(values, vendor))));
      announce('Settings saved');
    } catch (error) {
      setProblems(applyServerErrors(error, setError, SERVER_FIELDS));
    }
  });
  const options = messageOptions(messages, settings);

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Settings">
      <FormAlert title="The settings were not saved." messages={problems} />
      <Section title="Dialing">
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label={FIELD_LABELS.dialsecs}
            inputMode="numeric"
            hint={`How long a call rings before it counts as no answer: ${DIALSECS_RANGE.min} to ${DIALSECS_RANGE.max} seconds.`}
            error={errorOf(errors.dialsecs, FIELD_LABELS.dialsecs, 'dialsecs')}
            {...register('dialsecs')}
          />
          <TextField
            label={FIELD_LABELS.calltime_min}
            type="time"
            min={CALL_WINDOW.min}
            max={CALL_WINDOW.max}
            hint="Contacts' local time."
            error={errorOf(errors.calltime_min, FIELD_LABELS.calltime_min, 'calltime_min')}
            {...register('calltime_min')}
          />
          <TextField
            label={FIELD_LABELS.calltime_max}
            type="time"
            min={CALL_WINDOW.min}
            max={CALL_WINDOW.max}
            hint={`Between ${CALL_WINDOW.min} and ${CALL_WINDOW.max}.`}
            error={errorOf(errors.calltime_max, FIELD_LABELS.calltime_max, 'calltime_max')}
            {...register('calltime_max')}
          />
        </div>
        <div className="mt-4 space-y-3">
          <Checkbox label={FIELD_LABELS.ringing} {...register('ringing')} />
          <Checkbox
            label={FIELD_LABELS.send_skips}
            hint="Contacts the dialer skips are reported to your integration's callbacks, like calls."
            {...register('send_skips')}
          />
        </div>
      </Section>
      <Section title="Disposition e-mails">
        <Checkbox
          label={FIELD_LABELS.emails}
          hint="After a call, the message chosen for its disposition is e-mailed to the contact."
          {...register('emails')}
        />
        <fieldset className="mt-4">
          <legend className="text-sm font-medium text-zinc-700">Message per disposition</legend>
          <div className="mt-2 grid gap-4 sm:grid-cols-2">
            {MESSAGE_KEYS.map((key) => (
              <SelectField
                key={key}
                label={MESSAGE_LABELS[key]}
                options={options}
                error={errorOf(errors.messages?.[key], MESSAGE_LABELS[key], key)}
                {...register(`messages.${key}`)}
              />
            ))}
          </div>
        </fieldset>
      </Section>
      {vendor && (
        <Section title="Recording">
          <div className="space-y-4">
            <Checkbox
              label={FIELD_LABELS.record_calls}
              hint="Answered calls are recorded and transcribed, for the whole organisation."
              {...register('record_calls')}
            />
            <TextField
              label={FIELD_LABELS.recording_retention_days}
              inputMode="numeric"
              className="sm:max-w-xs"
              hint={`${RETENTION_DAYS_RANGE.min} to ${RETENTION_DAYS_RANGE.max} days; older recordings and their transcripts are deleted.`}
              error={errorOf(errors.recording_retention_days, FIELD_LABELS.recording_retention_days, 'recording_retention_days')}
              {...register('recording_retention_days')}
            />
          </div>
        </Section>
      )}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" busy={formState.isSubmitting}>
          Save settings
        </Button>
      </div>
    </form>
  );
}

/**
 * None, then the library's e-mails (not its call scripts); a saved choice the library no longer lists (deleted since)
 * stays selected, said to be deleted: it sends nothing until another is chosen.
 */
function messageOptions(messages: LibraryMessage[], settings: DialSettingsRecord) {
  const listed = messages
    .filter((m) => m.type !== 'script')
    .map((m) => ({ value: m.message_id, label: m.system_message ? `${m.display_name} (system)` : m.display_name }));
  const known = new Set(listed.map((o) => o.value));
  const missing = [...new Set(MESSAGE_KEYS.map((k) => settings[k]).filter((id): id is string => !!id && !known.has(id)))];
  return [{ value: '', label: 'None' }, ...listed, ...missing.map((id) => ({ value: id, label: 'A deleted message (sends nothing)' }))];
}
