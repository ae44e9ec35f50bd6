import { useRef, useState } from 'react';
import type { VoicemailOption } from '../../api/dial-sessions';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { InlineSelect } from '../../components/ui/select';
import { ShortcutButton } from './shortcut-button';
import type { Allowed } from './use-dialer';

export const CONTROL_KEYS = { call: 'c', hangup: 'h', skip: 's', voicemail: 'v' } as const;

type Props = {
  preview: boolean;
  allowed: Allowed;
  voicemails: VoicemailOption[];
  recordingId: string;
  onRecording: (id: string) => void;
  onCall: () => void;
  onHangUp: () => void;
  onSkip: () => void;
  onVoicemail: () => void;
  onEnd: () => void;
};

/** Plays the chosen recording to the rep (the server answers Range requests, so it starts at once). */
function VoicemailPreview({ url }: { url: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (playing) element.pause();
    else void element.play().catch(() => setPlaying(false));
  };
  return (
    <>
      <audio
        ref={audio}
        src={url}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <Button variant="ghost" onClick={toggle}>
        {playing ? 'Stop preview' : 'Preview voicemail'}
      </Button>
    </>
  );
}

/** Call, hang up, skip, voicemail drop and ending the session; what the phase does not allow is disabled. */
export function CallControls(props: Props) {
  const { preview, allowed, voicemails, recordingId, onRecording } = props;
  const [confirming, setConfirming] = useState(false);

  return (
    <section aria-label="Call controls" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap gap-2">
        {preview && (
          <ShortcutButton variant="primary" label="Call" shortcut={CONTROL_KEYS.call} disabled={!allowed.call} onClick={props.onCall} />
        )}
        <ShortcutButton
          variant="danger"
          label="Hang up"
          shortcut={CONTROL_KEYS.hangup}
          disabled={!allowed.hangup}
          onClick={props.onHangUp}
        />
        {preview && <ShortcutButton label="Skip" shortcut={CONTROL_KEYS.skip} disabled={!allowed.skip} onClick={props.onSkip} />}
      </div>

      <div className="flex flex-wrap items-end gap-2">
        <InlineSelect
          label="Voicemail"
          value={recordingId}
          onChange={(e) => onRecording(e.target.value)}
          options={voicemails.map((v) => ({ value: v.recording_id, label: `${v.name} (${v.seconds} s)` }))}
          disabled={voicemails.length === 0}
          className="min-w-0"
        />
        <ShortcutButton
          label="Drop voicemail"
          shortcut={CONTROL_KEYS.voicemail}
          disabled={!allowed.voicemail || !recordingId}
          onClick={props.onVoicemail}
        />
        {recordingId && <VoicemailPreview key={recordingId} url={`/rest/1/voicemails/${encodeURIComponent(recordingId)}/audio`} />}
      </div>

      <div className="flex justify-end border-t border-zinc-100 pt-3">
        <Button variant="danger-ghost" disabled={!allowed.end} onClick={() => setConfirming(true)}>
          End session
        </Button>
      </div>

      <Dialog
        open={confirming}
        role="alertdialog"
        size="sm"
        onClose={() => setConfirming(false)}
        title="End this dial session?"
        footer={
          <>
            <Button data-autofocus onClick={() => setConfirming(false)}>
              Keep dialing
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirming(false);
                props.onEnd();
              }}
            >
              End session
            </Button>
          </>
        }
      >
        <p className="text-sm text-zinc-700">
          A call in progress is hung up, and the contacts not reached yet stay undialed. This cannot be undone.
        </p>
      </Dialog>
    </section>
  );
}
