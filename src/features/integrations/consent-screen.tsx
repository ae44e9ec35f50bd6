import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { consentQueryOptions, useDecideConsent } from '../../api/integrations';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { InlineError } from '../../components/ui/form-error';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';

/** What an integration's token lets it do: everything the member may do through the API, until disconnected. */
const ABILITIES = [
  'See and change your contacts, their notes, tags and custom fields, and your folders',
  'Start dial sessions as you, and read your calls, recordings and dialing figures',
  'Act as you in everything the Ringbook API allows, until you disconnect it in Settings',
];

/**
 * /authorize: where /oauth/authorize sends a member (after sign-in when needed). It names the integration and what it
 * may do; Allow or Deny posts the decision with the session's CSRF token and follows the answer back to the
 * integration. The page cannot be framed (the server's frame-ancestors 'none'), so another site cannot click it.
 */
export function ConsentScreen() {
  const { search } = useLocation();
  const info = useQuery(consentQueryOptions(search));
  const decide = useDecideConsent();
  const redirectTo = info.data && 'redirect_to' in info.data ? info.data.redirect_to : null;

  useEffect(() => {
    document.title = 'Allow an integration · Ringbook';
  }, []);
  useEffect(() => {
    if (redirectTo) window.location.replace(redirectTo);
  }, [redirectTo]);

  if (info.isPending || redirectTo) {
    return (
      <div className="flex justify-center py-16" aria-busy="true">
        <Spinner label="Loading…" />
      </div>
    );
  }
  if (info.isError) return <ErrorState title="This integration cannot be connected" message={errorMessage(info.error)} />;
  const consent = info.data as Exclude<typeof info.data, { redirect_to: string }>;
  const send = (decision: 'allow' | 'deny') =>
    decide.mutate(
      { ...Object.fromEntries(new URLSearchParams(search)), decision, csrf_token: consent.csrf_token },
      { onSuccess: (to) => window.location.assign(to) },
    );
  const host = new URL(consent.redirect_uri).host;
  const busy = decide.isPending || decide.isSuccess;

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10">
      <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-zinc-900">Allow {consent.integration_name} to use your Ringbook account?</h1>
        <p className="mt-2 text-sm text-zinc-600">
          {consent.integration_name} is an integration registered by {consent.organisation_name || 'your organisation'}. If you allow it, it
          may:
        </p>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-zinc-800">
          {ABILITIES.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-zinc-600">
          You will be sent back to <strong className="font-medium text-zinc-900">{host}</strong>.
        </p>
        <InlineError error={decide.error} />
        <div className="mt-5 flex justify-end gap-2">
          <Button onClick={() => send('deny')} disabled={busy}>
            Deny
          </Button>
          <Button variant="primary" onClick={() => send('allow')} busy={busy}>
            Allow
          </Button>
        </div>
      </div>
    </div>
  );
}
