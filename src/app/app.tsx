import { useEffect, useRef } from 'react';
import { RouterProvider } from 'react-router';
import { authKeys, startOver } from '../api/auth';
import { useStatus } from '../components/ui/status-message';
import { requestSignInAgain } from '../features/auth/sign-in-again';
import { SignInAgainDialog } from '../features/auth/sign-in-again-dialog';
import { SignOutFailure } from '../features/auth/sign-out-failure';
import { useSession } from '../features/auth/use-session';
import { setSessionEndedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

const queryClient = createQueryClient();
const router = createAppRouter();

/*
 * A 401 on a request that expected the session means it ended under the user. While a member is signed in in this
 * tab, whatever the user was doing waits for them to sign in again in place (SignInAgainDialog), then goes through:
 * a save, a page of contacts, a bulk job. Nobody signed in here: the 401 stands (the shell sends the user to the
 * sign-in page, remembering where they were).
 */
setSessionEndedHandler(async () => {
  if (!queryClient.getQueryData(authKeys.session())) return false;
  return requestSignInAgain();
});

/** Leaving the current screen for the sign-in page (or, for another member, a clean start). */
function leaveSession(reason: 'gave-up' | 'other-member') {
  if (reason === 'other-member') {
    startOver(queryClient, queryClient.getQueryData(authKeys.session()) ?? null);
    void router.navigate('/contacts', { replace: true });
    return;
  }
  const { pathname, search } = router.state.location;
  const next = encodeURIComponent(`${pathname}${search}`);
  /* The sign-in page drops what is cached of the ended session once the current screen has gone. */
  void router.navigate(`/sign-in?next=${next}`, { replace: true, state: { sessionEnded: true } });
}

/** No message outlives the session it was about ("Contact saved" on the sign-in page, or for the next member). */
function ClearStatusOnSessionChange() {
  const { member } = useSession();
  const { clear } = useStatus();
  const memberId = member === undefined ? undefined : (member?.user_id ?? null);
  const previous = useRef(memberId);
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== memberId) clear();
    previous.current = memberId;
  }, [memberId, clear]);
  return null;
}

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
      <SignInAgainDialog onLeave={leaveSession} />
      <SignOutFailure />
      <ClearStatusOnSessionChange />
    </AppProviders>
  );
}
