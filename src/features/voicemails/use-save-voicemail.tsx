import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { renameVoicemailBody } from '../../../server/contracts/voicemails';
import { useUploadVoicemail, VOICEMAIL_LIMITS } from '../../api/voicemails';
import { TextField } from '../../components/ui/field';
import { applyServerErrors, labelled, type FieldMap } from '../../components/ui/form-error';
import { ProgressBar } from '../../components/ui/progress-bar';
import { useStatus } from '../../components/ui/status-message';

type Input = z.input<typeof renameVoicemailBody>;
export const NAME_FIELD: FieldMap<Input> = { name: { name: 'name', label: 'Name' } };
const MB = VOICEMAIL_LIMITS.maxBytes / 1024 / 1024;

/** A name form for new audio: sends it with progress, and says the server's refusal (not audio, too long, too large). */
export function useSaveVoicemail(defaultName: string, onSaved: () => void) {
  const upload = useUploadVoicemail();
  const { announce } = useStatus();
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm<Input, unknown, z.output<typeof renameVoicemailBody>>({
    resolver: zodResolver(renameVoicemailBody),
    defaultValues: { name: defaultName },
  });

  const save = (audio: Blob | null) =>
    form.handleSubmit(async ({ name }) => {
      setProblems([]);
      if (!audio) return setProblems(['Choose an audio file, or record a greeting, first.']);
      if (audio.size > VOICEMAIL_LIMITS.maxBytes) return setProblems([`The file is larger than ${MB} MB, the most a voicemail may be.`]);
      try {
        await upload.mutateAsync({ name, audio, onProgress: (sent, total) => setProgress({ sent, total }) });
        announce(`Voicemail “${name}” saved`);
        onSaved();
      } catch (error) {
        setProblems(applyServerErrors(error, form.setError, NAME_FIELD));
      } finally {
        setProgress(null);
      }
    });

  const error = form.formState.errors.name?.message;
  const nameField = (
    <TextField
      label="Name"
      autoComplete="off"
      maxLength={VOICEMAIL_LIMITS.maxName}
      error={error ? labelled('Name', error, 'name') : undefined}
      {...form.register('name')}
    />
  );
  const progressBar = progress && (
    <ProgressBar
      value={progress.sent}
      max={progress.total}
      label={`Uploading… ${Math.round((progress.sent / Math.max(1, progress.total)) * 100)}%`}
    />
  );
  return {
    save,
    busy: upload.isPending,
    problems,
    nameField,
    progressBar,
    suggestName: (name: string) => form.getValues('name') || form.setValue('name', name, { shouldValidate: true }),
  };
}
