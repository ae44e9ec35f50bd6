import type { MemberRecord } from '../../../server/contracts/members';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { settleSignInAgain, useSignInAgainRequested } from './sign-in-again';
import { SignInForm } from './sign-in-form';
import { useSession } from './use-session';

type Props = {
  /** The user chose the sign-in page instead (or another member signed in): leave the current screen. */
  onLeave: (reason: 'gave-up' | 'other-member') => void;
};

/**
 * Over whatever screen the user is on when the session ends: sign in again as the same member and carry on.
 * Nothing on the screen is dropped; the requests that found the session gone are sent again afterwards.
 */
export function SignInAgainDialog({ onLeave }: Props) {
  const requested = useSignInAgainRequested();
  const { member } = useSession();

  const onSignedIn = (signedIn: MemberRecord) => {
    if (member && signedIn.user_id !== member.user_id) {
      settleSignInAgain(false);
      onLeave('other-member');
      return;
    }
    settleSignInAgain(true);
  };

  const giveUp = () => {
    settleSignInAgain(false);
    onLeave('gave-up');
  };

  return (
    <Dialog
      open={requested}
      onClose={() => undefined}
      dismissible={false}
      size="sm"
      title="Your session ended"
      description="Sign in again to carry on where you were. Nothing you typed is lost, and what you were saving is sent once you are signed in."
      footer={
        <Button variant="ghost" onClick={giveUp}>
          Go to the sign-in page instead
        </Button>
      }
    >
      <SignInForm resumeAs={member?.username} onSignedIn={onSignedIn} />
      <p className="mt-3 text-xs text-zinc-500">Going to the sign-in page drops any changes not yet saved.</p>
    </Dialog>
  );
}
