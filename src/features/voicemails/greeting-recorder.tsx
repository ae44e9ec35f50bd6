import { useId } from 'react';
import { VOICEMAIL_LIMITS } from '../../api/voicemails';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormAlert } from '../../components/ui/form-error';
import { Spinner } from '../../components/ui/spinner';
import { formatDuration } from '../usage/session-calls';
import { useSaveVoicemail } from './use-save-voicemail';
import { type RecorderState, useElapsed, useRecorder } from './use-recorder';

const REFUSALS: Partial<Record<RecorderState['kind'], string>> = {
  denied: 'Ringbook may not use your microphone. Allow it in your browser’s site settings for this page, then try again.',
  'no-microphone': 'No microphone was found. Connect one and try again, or upload an audio file instead.',
};

/** Record a greeting in the browser: start, a running timer, stop, listen, name it and save it. */
export function GreetingRecorderDialog({ onClose }: { onClose: () => void }) {
  const { state, start, stop } = useRecorder(VOICEMAIL_LIMITS.maxSeconds);
  const saving = useSaveVoicemail('My greeting', onClose);
  const formId = useId();
  const audio = state.kind === 'recorded' ? state.audio : null;
  const refusal = state.kind === 'failed' ? `The microphone could not be used: ${state.message}` : REFUSALS[state.kind];

  const footer = (
    <>
      <Button onClick={onClose} disabled={saving.busy}>
        Cancel
      </Button>
      {state.kind === 'recording' && (
        <Button variant="primary" onClick={stop}>
          Stop recording
        </Button>
      )}
      {state.kind === 'recorded' && (
        <>
          <Button onClick={() => void start()} disabled={saving.busy}>
            Record again
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={saving.busy}>
            Save greeting
          </Button>
        </>
      )}
      {(state.kind === 'idle' || refusal) && (
        <Button variant="primary" onClick={() => void start()}>
          {state.kind === 'idle' ? 'Start recording' : 'Try again'}
        </Button>
      )}
    </>
  );

  return (
    <Dialog open onClose={onClose} title="Record a greeting" preventClose={saving.busy} footer={footer}>
      <div className="space-y-4 text-sm text-zinc-700">
        {state.kind === 'idle' && (
          <p>Say the message you want to leave on answering machines, up to {VOICEMAIL_LIMITS.maxSeconds / 60} minutes.</p>
        )}
        {state.kind === 'asking' && <Spinner label="Waiting for the microphone…" />}
        {state.kind === 'recording' && <RecordingTimer startedAt={state.startedAt} />}
        {refusal && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
            {refusal}
          </p>
        )}
        {state.kind === 'recorded' && (
          <form id={formId} onSubmit={saving.save(audio)} noValidate className="space-y-4">
            <p>Recorded {formatDuration(Math.round(state.seconds))}. Listen to it, then name it and save it.</p>
            <audio controls src={state.url} aria-label="Preview the recording" className="w-full" />
            <FormAlert title="The greeting was not saved." messages={saving.problems} />
            {saving.nameField}
            {saving.progressBar}
          </form>
        )}
      </div>
    </Dialog>
  );
}

function RecordingTimer({ startedAt }: { startedAt: number }) {
  const seconds = Math.floor(useElapsed(startedAt));
  return (
    <p className="flex items-center gap-2 text-base font-medium text-zinc-900">
      <span className="size-3 animate-pulse rounded-full bg-red-600" aria-hidden="true" />
      Recording
      <span role="timer" aria-label="Recording time" className="tabular-nums">
        {formatDuration(seconds)}
      </span>
      <span className="text-sm font-normal text-zinc-500">of {formatDuration(VOICEMAIL_LIMITS.maxSeconds)}</span>
    </p>
  );
}
