import { useQuery } from '@tanstack/react-query';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { transcriptQueryOptions } from '../../api/calls';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { AudioPlayer } from './audio-player';
import { TalkSplit } from './talk-split';
import { type SpeakerNames, TranscriptLines } from './transcript-lines';
import type { Player } from './use-player';

const note = 'rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-700';

/** The player, or why there is none: not recorded, on its way, not stored, or deleted since. */
export function RecordingPart({ call, player }: { call: ListedCallRecord; player: Player }) {
  if (call.recording_url && call.recording_status === 'stored') {
    return (
      <>
        <AudioPlayer src={call.recording_url} player={player} />
        {player.failed && (
          <p role="alert" className={`${note} mt-2`}>
            The recording is no longer available: it has been deleted, or cannot be read now.
          </p>
        )}
      </>
    );
  }
  if (!call.end_when) return <p className={note}>The call is still going on; its recording comes when it ends.</p>;
  if (call.recording_status === 'pending')
    return (
      <p role="status" className={note}>
        The recording is on its way from the carrier…
      </p>
    );
  if (call.recording_status === 'failed') return <p className={note}>The recording could not be stored.</p>;
  if (call.recording_status === 'deleted')
    return <p className={note}>The recording has been deleted.{call.transcript_reason ? ` ${call.transcript_reason}` : ''}</p>;
  return <p className={note}>This call was not recorded{call.connected === '1' ? '.' : ': nobody answered.'}</p>;
}

/** Where the transcript is: being made (the call is polled meanwhile), failed, unavailable, or there. */
export function TranscriptPart({ call, names, player }: { call: ListedCallRecord; names: SpeakerNames; player: Player }) {
  switch (call.transcript_status) {
    case 'queued':
    case 'processing':
      return (
        <div role="status" className="flex items-center gap-2">
          <Spinner className="size-4" />
          <span className="text-sm text-zinc-700">Transcribing… this page shows the transcript as soon as it is ready.</span>
        </div>
      );
    case 'failed':
      return (
        <p role="alert" className={note}>
          Transcription failed{call.transcript_reason ? `: ${call.transcript_reason}` : '.'}
        </p>
      );
    case 'deleted':
      return <p className={note}>The transcript was deleted with the recording.</p>;
    case 'unavailable':
      return (
        <p className={note}>Transcription is not available on this server.{call.transcript_reason ? ` ${call.transcript_reason}` : ''}</p>
      );
    case 'completed':
    case 'summarized':
      return call.transcript_id ? <TranscriptBody transcriptId={call.transcript_id} names={names} player={player} /> : null;
    default:
      if (call.recording_status === 'pending') return <p className={note}>The transcript is made once the recording is in.</p>;
      return (
        <p className={note}>{call.recording_status === 'none' ? 'No recording, so no transcript.' : 'This call has no transcript yet.'}</p>
      );
  }
}

function TranscriptBody({ transcriptId, names, player }: { transcriptId: string; names: SpeakerNames; player: Player }) {
  const query = useQuery(transcriptQueryOptions(transcriptId));
  if (query.isPending) return <Spinner label="Loading the transcript…" />;
  if (query.isError) {
    return (
      <ErrorState
        title="The transcript could not be loaded"
        message={errorMessage(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return <TranscriptLines segments={query.data.segments} names={names} time={player.time} playing={player.playing} onSeek={player.seek} />;
}

/** The summary and the talk split, once the transcript is there. */
export function SummaryPart({ call, names }: { call: ListedCallRecord; names: SpeakerNames }) {
  if (!call.transcript) {
    return (
      <p className="text-sm text-zinc-600">
        {call.transcript_status === 'deleted' ? 'Deleted with the recording.' : 'The summary comes with the transcript.'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <TalkSplit talkTime={call.transcript.talk_time} names={names} />
      {call.transcript.summary ? (
        <p className="text-sm text-zinc-900">{call.transcript.summary}</p>
      ) : (
        <p role="status" className="text-sm text-zinc-600">
          The summary is being written…
        </p>
      )}
    </div>
  );
}
