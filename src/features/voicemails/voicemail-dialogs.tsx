import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { renameVoicemailBody } from '../../../server/contracts/voicemails';
import { useDeleteVoicemail, useRenameVoicemail, VOICEMAIL_LIMITS, type VoicemailRecord } from '../../api/voicemails';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { fileInputClass, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { NAME_FIELD, useSaveVoicemail } from './use-save-voicemail';

type Input = z.input<typeof renameVoicemailBody>;

/** Mounted each time it opens, so its form starts from the recording's name. */
export function RenameVoicemailDialog({ voicemail, onClose }: { voicemail: VoicemailRecord | null; onClose: () => void }) {
  return voicemail ? <RenameForm key={voicemail.recording_id} voicemail={voicemail} onClose={onClose} /> : null;
}

function RenameForm({ voicemail, onClose }: { voicemail: VoicemailRecord; onClose: () => void }) {
  const rename = useRenameVoicemail();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, z.output<typeof renameVoicemailBody>>({
    resolver: zodResolver(renameVoicemailBody),
    defaultValues: { name: voicemail.name },
  });
  const submit = handleSubmit(async ({ name }) => {
    setProblems([]);
    try {
      await rename.mutateAsync({ id: voicemail.recording_id, name });
      announce(`Voicemail “${voicemail.name}” renamed to “${name}”`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, NAME_FIELD));
    }
  });
  const error = formState.errors.name?.message;
  return (
    <FormDialog
      title={`Rename the voicemail ${voicemail.name}`}
      submitLabel="Rename voicemail"
      busy={rename.isPending}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The voicemail was not renamed." messages={problems} />
      <TextField
        label="Name"
        autoComplete="off"
        maxLength={VOICEMAIL_LIMITS.maxName}
        error={error ? labelled('Name', error, 'name') : undefined}
        {...register('name')}
      />
    </FormDialog>
  );
}

export function DeleteVoicemailDialog({ voicemail, onClose }: { voicemail: VoicemailRecord | null; onClose: () => void }) {
  return (
    <DeleteDialog
      item={voicemail}
      remove={useDeleteVoicemail()}
      idOf={(v) => v.recording_id}
      title={(v) => `Delete the voicemail ${v.name}?`}
      confirmLabel="Delete voicemail"
      deleted={(v) => `Voicemail “${v.name}” deleted`}
      onClose={onClose}
    >
      <p>It leaves the library: nobody can drop it any more. Calls that left it keep its name.</p>
    </DeleteDialog>
  );
}

const baseName = (file: string) => file.replace(/\.[^.]+$/, '').slice(0, VOICEMAIL_LIMITS.maxName);

/** An audio file from the computer (WAV, MP3, Ogg, WebM, M4A, FLAC), named and uploaded. */
export function UploadVoicemailDialog({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const saving = useSaveVoicemail('', onClose);
  const fileId = useId();
  return (
    <FormDialog
      title="Upload a voicemail"
      description={`An audio file of up to ${VOICEMAIL_LIMITS.maxSeconds / 60} minutes and ${VOICEMAIL_LIMITS.maxBytes / 1024 / 1024} MB.`}
      submitLabel="Upload voicemail"
      busy={saving.busy}
      onClose={onClose}
      onSubmit={saving.save(file)}
    >
      <FormAlert title="The voicemail was not saved." messages={saving.problems} />
      <div className="space-y-1">
        <label htmlFor={fileId} className="block text-sm font-medium text-zinc-800">
          Audio file
        </label>
        <input
          id={fileId}
          type="file"
          accept="audio/*"
          className={`${fileInputClass} w-full`}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            setFile(chosen);
            if (chosen) saving.suggestName(baseName(chosen.name));
          }}
        />
      </div>
      {saving.nameField}
      {saving.progressBar}
    </FormDialog>
  );
}
