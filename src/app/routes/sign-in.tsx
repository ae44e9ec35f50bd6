import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { startOver } from '../../api/auth';
import { Spinner } from '../../components/ui/spinner';
import { SignInForm } from '../../features/auth/sign-in-form';
import { useSession } from '../../features/auth/use-session';
import { focusPageHeading } from '../../features/auth/focus-page-heading';
import { safeRedirect } from '../../lib/safe-redirect';

export function SignInRoute() {
  const { member, isPending } = useSession();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const next = safeRedirect(params.get('next'));
  const sessionEnded = (location.state as { sessionEnded?: boolean } | null)?.sessionEnded === true;
  /* A dial session's one-time link (redirect_url) that was used already or is too old lands here. */
  const linkExpired = params.get('link') === 'expired';
  const notice = linkExpired
    ? 'This dialer link has expired or was already used. Sign in to continue, then start the dial session again.'
    : sessionEnded
      ? 'Your session ended. Please sign in again.'
      : undefined;

  const queryClient = useQueryClient();
  useEffect(() => {
    document.title = 'Sign in · Ringbook';
  }, []);

  /* Sent here because the session ended: nothing cached of it survives (the screen that used it has gone now). */
  useEffect(() => {
    if (sessionEnded) startOver(queryClient, null);
  }, [sessionEnded, queryClient]);

  /* Already signed in (another tab, or back button): go on to where the user was heading, unless a spent dialer link
     brought them here, which they must be told about first, or their session just ended (what is cached of it is
     on its way out). */
  useEffect(() => {
    if (member && !linkExpired && !sessionEnded) navigate(next, { replace: true });
  }, [member, linkExpired, sessionEnded, next, navigate]);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-zinc-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <img src="/favicon.svg" alt="" className="mb-3 size-10" />
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Sign in to Ringbook</h1>
          <p className="mt-1 text-sm text-zinc-600">Contacts and power dialing for your sales team.</p>
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
          {isPending ? (
            <div className="flex justify-center py-8">
              <Spinner label="Checking your session…" />
            </div>
          ) : (
            <>
              {member && linkExpired && (
                <Link to={next} replace className="mb-4 block text-center text-sm font-medium text-indigo-700 hover:underline">
                  You are signed in: continue to Ringbook
                </Link>
              )}
              <SignInForm
                onSignedIn={() => {
                  const leaving = document.querySelector('main h1');
                  void Promise.resolve(navigate(next, { replace: true })).then(() => focusPageHeading(leaving));
                }}
                notice={notice}
              />
            </>
          )}
        </div>
      </div>
    </main>
  );
}
