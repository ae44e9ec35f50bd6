import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { callQueryOptions } from '../../api/calls';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { contactOf } from '../usage/session-calls';
import { CallFacts } from './call-facts';
import { RecordingPart, SummaryPart, TranscriptPart } from './call-media';
import type { SpeakerNames } from './transcript-lines';
import { usePlayer, usePlayerKeys } from './use-player';

const backLink = (
  <Link to="/calls" className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
    ← All calls
  </Link>
);

/** The call viewer (/calls/:id): the recording, its transcript followed as it plays, the talk split, summary and facts. */
export function CallViewer({ id }: { id: string }) {
  const query = useQuery(callQueryOptions(id));
  if (query.isPending)
    return (
      <div className="p-6" aria-busy="true">
        <Spinner label="Loading the call…" />
      </div>
    );
  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-5">
        {missing ? (
          <EmptyState title="Call not found" action={backLink}>
            There is no call {id}, or it is not one you may see.
          </EmptyState>
        ) : (
          <ErrorState
            title="The call could not be loaded"
            message={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        )}
      </div>
    );
  }
  return <CallDetail call={query.data} />;
}

function CallDetail({ call }: { call: ListedCallRecord }) {
  // The player is there once the recording is stored (its address is known from the call's answer): the player's
  // element and its listeners come together.
  const player = usePlayer(call.recording_status === 'stored' ? (call.recording_url ?? null) : null, call.duration);
  usePlayerKeys(player, !!call.recording_url);
  const names: SpeakerNames = { member: call.member_name || 'Member', contact: contactOf(call) };
  const title = `Call with ${contactOf(call)}`;
  useEffect(() => {
    document.title = `${title} · Ringbook`;
  }, [title]);

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-5 px-4 py-5 sm:px-6">
      <header className="flex flex-col gap-1">
        {backLink}
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        <p className="text-sm text-zinc-600">
          {formatDateTime(call.start_when)}
          {call.recording_url ? ' · Space plays and pauses, the arrows seek 5 seconds.' : ''}
        </p>
      </header>
      <div className="grid min-w-0 gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-5">
          <Section title="Recording">
            <RecordingPart call={call} player={player} />
          </Section>
          <Section title="Transcript">
            <TranscriptPart call={call} names={names} player={player} />
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-5">
          <Section title="Summary">
            <SummaryPart call={call} names={names} />
          </Section>
          <Section title="Details">
            <CallFacts call={call} />
          </Section>
        </div>
      </div>
    </div>
  );
}
