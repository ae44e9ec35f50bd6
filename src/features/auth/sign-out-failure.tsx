import { useMutationState } from '@tanstack/react-query';
import { useState } from 'react';
import { authKeys, useSignOut } from '../../api/auth';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { errorMessage } from '../../lib/api-client';

/**
 * A sign-out the server did not confirm: the session may still be alive there, so the user is told it failed and
 * is still signed in, and may try again. Shown for any sign-out attempt in the app (they share a mutation key).
 */
export function SignOutFailure() {
  const attempts = useMutationState({
    filters: { mutationKey: authKeys.signOut() },
    select: (m) => ({ status: m.state.status, submittedAt: m.state.submittedAt, error: m.state.error }),
  });
  const retry = useSignOut();
  const [dismissedAt, setDismissedAt] = useState(0);
  const latest = attempts.at(-1);
  const failed = latest?.status === 'error' && latest.submittedAt > dismissedAt;
  const open = failed || (retry.isPending && latest?.status === 'pending');

  return (
    <Dialog
      open={open}
      onClose={() => setDismissedAt(latest?.submittedAt ?? Date.now())}
      preventClose={retry.isPending}
      role="alertdialog"
      size="sm"
      title="Sign-out failed"
      description="You are still signed in: the server did not confirm the end of your session, so it may still be active."
      footer={
        <>
          <Button onClick={() => setDismissedAt(latest?.submittedAt ?? Date.now())} disabled={retry.isPending}>
            Stay signed in
          </Button>
          <Button variant="primary" busy={retry.isPending} onClick={() => retry.mutate()} data-autofocus>
            Retry sign-out
          </Button>
        </>
      }
    >
      <p className="text-sm text-zinc-700" role="status">
        {retry.isPending ? 'Signing out…' : latest?.error ? errorMessage(latest.error) : null}
      </p>
    </Dialog>
  );
}
