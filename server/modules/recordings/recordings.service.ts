import type { Store } from '../../db/database.js';
import type { Carrier } from '../../dialer/carrier.js';
import type { Logger } from '../../lib/logger.js';
import type { CarrierEventBody } from '../../carrier/protocol.js';
import type { Call, Recording } from '../../db/schema.js';
import { nowMs } from '../../lib/clock.js';
import type { Lease, LeaseTask } from '../../lib/lease-loop.js';
import { now } from '../../lib/time.js';
import { type RecordingStore, recordingKey } from '../../recordings/store.js';
import { queueTranscript } from '../transcripts/transcripts.repository.js';
import * as repo from './recordings.repository.js';

/** The store, and the loop that fetches recordings, told when one is announced. */
export type AnnounceDeps = { store: Store; recordings: { loop: { nudge(): void } } };

/** What fetching a recording needs: the carrier that has it, the recording store, and transcription (when this process runs it), told when one is stored. */
export type FetchDeps = {
  store: Store;
  logger: Logger;
  dialer: { carrier: Carrier };
  recordings: { store: RecordingStore };
  transcription?: { nudge(): void };
};

/*
 * A call's recording comes from the carrier in two steps, so that nothing acknowledged is lost: the carrier's
 * announcement is written down (and answered 2xx), then a leased job in any process fetches it into the recording
 * store, marks it stored, queues its transcript and tells the carrier it may delete its copy. A fetch that fails is
 * tried again with growing pauses for a day.
 */

export async function recordingAnnounced(
  ctx: AnnounceDeps,
  call: Call,
  recording: NonNullable<CarrierEventBody['recording']>,
  at: string,
): Promise<void> {
  await ctx.store.write((tx) =>
    repo.announceRecording(tx, {
      callId: call.id,
      orgId: call.org_id,
      sourceUrl: recording.url,
      contentType: recording.content_type,
      bytes: recording.bytes,
      durationMs: Math.round(recording.duration_seconds * 1000),
      at,
      nowMs: nowMs(),
    }),
  );
  ctx.recordings.loop.nudge();
}

const RETRY_PAUSES_S = [5, 15, 60, 300, 900, 3600];
const GIVE_UP_ATTEMPTS = 30;

/** The job that fetches announced recordings into the store (LeaseLoop). */
export function fetchTask(ctx: FetchDeps): LeaseTask<Recording> {
  return {
    name: 'recording fetch',
    anyDue: repo.anyRecordingDue,
    claim: repo.claimRecordings,
    renew: (tx, item, owner, untilMs) => repo.renewRecording(tx, item.id, owner, untilMs),
    work: (recording, lease) => fetchOne(ctx, recording, lease),
  };
}

async function fetchOne(ctx: FetchDeps, recording: Recording, lease: Lease): Promise<void> {
  const key = recordingKey(recording.org_id, recording.created_at, recording.call_id);
  try {
    const bytes = await ctx.dialer.carrier.fetchRecording(recording.source_url);
    await ctx.recordings.store.put(key, bytes);
    const stored = await ctx.store.write(async (tx) => {
      const at = now();
      if (
        !(await repo.settleRecording(tx, recording.id, lease.owner, {
          state: 'stored',
          storage_key: key,
          bytes: bytes.length,
          stored_at: at,
          error: null,
        }))
      )
        return false;
      await queueTranscript(tx, { callId: recording.call_id, orgId: recording.org_id, at, nowMs: nowMs() });
      return true;
    });
    if (!stored) return;
    ctx.transcription?.nudge();
    await ctx.dialer.carrier
      .deleteRecording(recording.source_url)
      .catch((error: unknown) =>
        ctx.logger.warn({ err: error, call: recording.call_id }, 'the carrier was not told to delete its copy of a recording'),
      );
  } catch (error) {
    const failed = recording.attempts >= GIVE_UP_ATTEMPTS;
    const pause = RETRY_PAUSES_S[Math.min(recording.attempts - 1, RETRY_PAUSES_S.length - 1)]!;
    ctx.logger.warn({ err: error, call: recording.call_id, attempt: recording.attempts, retry: !failed }, 'recording not fetched');
    await ctx.store.write((tx) =>
      repo.settleRecording(tx, recording.id, lease.owner, {
        error: (error as Error).message.slice(0, 500),
        ...(failed ? { state: 'failed' as const } : { next_attempt_at_ms: nowMs() + pause * 1000 }),
      }),
    );
  }
}
