import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { errorMessage } from '../../lib/api-client';

type Props = {
  runningId: string | null;
  onResume: () => void;
  onEndAndStart: () => void;
  onCancel: () => void;
  busy: boolean;
  error: unknown;
};

/**
 * A rep runs one dial session at a time: starting another while one runs asks which to keep. Cancel (or Escape)
 * changes nothing: the running session goes on and no new one is made.
 */
export function RunningSessionDialog({ runningId, onResume, onEndAndStart, onCancel, busy, error }: Props) {
  return (
    <Dialog
      open={runningId !== null}
      onClose={onCancel}
      preventClose={busy}
      title="A dial session is running"
      description={`You are running dial session ${runningId ?? ''}. A rep dials one session at a time.`}
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onEndAndStart} busy={busy}>
            End it and start this one
          </Button>
          <Button variant="primary" onClick={onResume} disabled={busy} data-autofocus>
            {`Resume session ${runningId ?? ''}`}
          </Button>
        </>
      }
    >
      <p className="text-sm text-zinc-700">
        Resume it to go back to its dialer, or end it (a call on the line is hung up) and start the new one.
      </p>
      {Boolean(error) && (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorMessage(error)}
        </p>
      )}
    </Dialog>
  );
}
