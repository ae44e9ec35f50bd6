import { useIsFetching, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { dialSettingsQueryOptions, libraryMessagesQueryOptions } from '../../api/dial-settings';
import { ErrorState } from '../../components/ui/error-state';
import { PageHeader, Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import type { DialSettingsRecord } from '../../../server/contracts/dial-settings';
import { useSession } from '../auth/use-session';
import { MessageLibrarySection } from '../messages/message-library';
import { ConnectionsSection } from '../integrations/connections-section';
import { TokensSection } from '../tokens/tokens-section';
import { VoicemailLibrarySection } from '../voicemails/voicemail-library';
import { CallbackSecretSection } from './callback-secret';
import { SettingsFormView } from './settings-form';

/**
 * /settings: the member's dial settings; the organisation's recording settings and callback secret for the vendor;
 * the message library (the disposition e-mails) and the voicemail library; the integrations the member connected and
 * its personal access tokens (the vendor: everyone's).
 */
export function SettingsScreen() {
  const { member } = useSession();
  const settings = useQuery(dialSettingsQueryOptions());
  const library = useQuery(libraryMessagesQueryOptions());
  const vendor = member?.role === 'vendor';
  /* Not before the settings have loaded: on the first render no query counts as fetching yet, though all are about to. */
  useScrollToAnchor(settings.isSuccess && library.isSuccess);

  let body;
  if (settings.isPending || library.isPending) {
    body = (
      <div className="flex justify-center py-10" aria-busy="true">
        <Spinner label="Loading settings…" />
      </div>
    );
  } else if (settings.isError || library.isError) {
    const retry = () => void Promise.all([settings.refetch(), library.refetch()]);
    body = (
      <ErrorState
        title="The settings could not be loaded"
        message={errorMessage(settings.error ?? library.error)}
        onRetry={retry}
        retrying={settings.isFetching || library.isFetching}
      />
    );
  } else {
    body = (
      <>
        <SettingsFormView settings={settings.data} messages={library.data} vendor={vendor} />
        {!vendor && <RecordingReadOnly settings={settings.data} />}
        {vendor && settings.data.callback_secret !== undefined && <CallbackSecretSection secret={settings.data.callback_secret} />}
      </>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-4 px-4 py-6 sm:px-6">
      <PageHeader title="Settings" description="How your calls are dialed, and what is sent after each one." />
      {body}
      {/* The libraries load on their own: writing a message or recording a greeting does not wait for the dial settings. */}
      <MessageLibrarySection />
      <VoicemailLibrarySection />
      <ConnectionsSection />
      <TokensSection vendor={vendor} />
    </div>
  );
}

/**
 * A link such as /settings#tokens (from the API reference) lands on its section: once, when every section above it has
 * loaded and has its height, so a later refetch does not move the page under the reader.
 */
function useScrollToAnchor(loaded: boolean) {
  const { hash } = useLocation();
  const fetching = useIsFetching();
  const done = useRef('');
  useEffect(() => {
    if (!loaded || fetching > 0 || hash.length < 2 || done.current === hash) return;
    done.current = hash;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [loaded, fetching, hash]);
}

/** What everyone may know about recording, and who may change it. */
function RecordingReadOnly({ settings }: { settings: DialSettingsRecord }) {
  const days = Number(settings.recording_retention_days);
  return (
    <Section title="Recording">
      <p className="text-sm text-zinc-700">
        {settings.record_calls === '1'
          ? `Answered calls are recorded and transcribed. Recordings and transcripts are kept for ${days} day${days === 1 ? '' : 's'}.`
          : 'Calls are not recorded.'}
      </p>
      <p className="mt-1 text-sm text-zinc-500">Only your organisation's vendor account can change this.</p>
    </Section>
  );
}
