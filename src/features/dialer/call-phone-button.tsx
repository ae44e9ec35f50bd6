import { createPortal } from 'react-dom';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { errorMessage } from '../../lib/api-client';
import { formatPhone } from '../../lib/format';
import { RunningSessionDialog } from './running-session-dialog';
import { useStartDialing } from './use-start-dialing';

type Starter = ReturnType<typeof useStartDialing>;

/**
 * What starting a session may ask or tell: which session to keep when one runs, or why none could start. Rendered
 * in document.body, and keys pressed in it stop there: a grid's keys (E edits, Space selects) must not see them.
 */
export function StartDialingDialogs({ starter }: { starter: Starter }) {
  const failed = Boolean(starter.error);
  if (!starter.conflict.runningId && !failed) return null;
  return createPortal(
    <div onKeyDown={(e) => e.stopPropagation()}>
      <RunningSessionDialog {...starter.conflict} />
      <Dialog
        open={failed && !starter.conflict.runningId}
        onClose={starter.dismissError}
        size="sm"
        role="alertdialog"
        title="The dial session could not start"
        footer={<Button onClick={starter.dismissError}>Close</Button>}
      >
        <p className="text-sm text-zinc-700">{errorMessage(starter.error)}</p>
      </Dialog>
    </div>,
    document.body,
  );
}

/** The body of a one-contact preview session: the rep sees the contact and the call is placed by the rep (or a link). */
export const oneContactSession = (contactId: string) => ({ contacts: [{ contact_user_id: contactId }], preview_mode: 1 as const });

/**
 * A phone number that calls through Ringbook instead of leaving it (tel:): a one-contact preview session on this
 * number, opened in the dialer, which places the call; the call is then logged like any other.
 */
export function CallPhoneButton({ contactId, phone, className = '' }: { contactId: string; phone: string; className?: string }) {
  const starter = useStartDialing();
  const shown = formatPhone(phone);
  return (
    <>
      <button
        type="button"
        aria-label={`Call ${shown}`}
        title="Call through Ringbook"
        aria-busy={starter.busy || undefined}
        disabled={starter.busy}
        onClick={() => starter.start({ body: oneContactSession(contactId), phone })}
        className={`cursor-pointer rounded-sm text-left tabular-nums text-indigo-700 underline-offset-2 hover:underline disabled:cursor-wait disabled:opacity-60 ${className}`}
      >
        {shown}
      </button>
      <StartDialingDialogs starter={starter} />
    </>
  );
}
