import { Button } from '../../components/ui/button';
import { oneContactSession, StartDialingDialogs } from '../dialer/call-phone-button';
import { useStartDialing } from '../dialer/use-start-dialing';
import { useContactPage } from './contact-context';

/** Why this contact cannot be called from here, or null. */
function blockedBy(contact: ReturnType<typeof useContactPage>['contact']): string | null {
  if (contact.trashed === '1') return 'This contact is in the trash.';
  if (contact.do_not_call === '1') return 'This contact is marked do not call.';
  if (!contact.phones?.length) return 'This contact has no phone number.';
  return null;
}

/** Starts a one-contact preview session for this contact and opens the dialer (asking first if a session runs). */
export function CallContactButton() {
  const { contact } = useContactPage();
  const starter = useStartDialing();
  const blocked = blockedBy(contact);
  return (
    <>
      <Button
        size="sm"
        variant="primary"
        busy={starter.busy}
        disabled={blocked !== null}
        title={blocked ?? 'Open the dialer for this contact'}
        onClick={() => starter.start({ body: oneContactSession(contact.contact_user_id) })}
      >
        Call
      </Button>
      <StartDialingDialogs starter={starter} />
    </>
  );
}
