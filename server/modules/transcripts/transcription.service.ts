import { buffer } from 'node:stream/consumers';
import type { Store } from '../../db/database.js';
import type { RecordingStore } from '../../recordings/store.js';
import type { Logger } from '../../lib/logger.js';
import type { Transcript } from '../../db/schema.js';
import { AudioDecodeError } from '../../audio/pcm.js';
import { nowMs } from '../../lib/clock.js';
import { LeaseLoop, type Lease, type LeaseTask } from '../../lib/lease-loop.js';
import { now, parseTimestamp } from '../../lib/time.js';
import { type TranscriptionEngine, TranscriptionFailedError } from '../../transcription/engine.js';
import { ruleSummarizer, type Summarizer } from '../../transcription/summarize.js';
import { transcribeCall } from '../../transcription/transcribe-call.js';
import * as repo from './transcripts.repository.js';
import { storedRecordingOf } from '../recordings/recordings.repository.js';

/** The store, the recordings it reads, and where it says why a try failed. */
export type TranscriptionDeps = { store: Store; logger: Logger; recordings: { store: RecordingStore } };

/*
 * Transcription is background work in the store: queued (the recording is stored) -> processing (leased by one server
 * process, renewed while it runs, taken up by another if that process dies) -> completed (segments, words, talk time)
 * -> summarized; or failed with a reason after three tries, or unavailable when this server has no engine (the reason
 * says what to install). At most `concurrency` calls per process at once, each two recognizers (one per channel) in
 * child processes: dialing never waits on it.
 */

const TRIES = 3;
const RETRY_AFTER_MS = 30_000;

export type TranscriptionOptions = { engine: TranscriptionEngine | null; summarizer?: Summarizer; concurrency: number; leaseMs: number };

export function createTranscription(ctx: TranscriptionDeps, options: TranscriptionOptions) {
  const task: LeaseTask<Transcript> = {
    name: 'transcription',
    anyDue: repo.anyTranscriptDue,
    claim: repo.claimTranscripts,
    renew: (tx, item, owner, untilMs) => repo.renewTranscript(tx, item.id, owner, untilMs),
    work: (transcript, lease) => transcribeOne(ctx, options, transcript, lease),
  };
  return new LeaseLoop(ctx.store, ctx.logger, task, { concurrency: options.concurrency, leaseMs: options.leaseMs, pollMs: 1_000 });
}

async function transcribeOne(ctx: TranscriptionDeps, options: TranscriptionOptions, transcript: Transcript, lease: Lease) {
  const settle = (values: Parameters<typeof repo.settleTranscript>[3], release = true) =>
    ctx.store.write((tx) => repo.settleTranscript(tx, transcript.id, lease.owner, values, release));
  const availability = options.engine
    ? await options.engine.availability()
    : { available: false as const, reason: 'Transcription is turned off on this server (TRANSCRIBER=none).' };
  if (!availability.available) return void (await settle({ status: 'unavailable', reason: availability.reason }));
  try {
    const recording = await storedRecordingOf(ctx.store.db, transcript.call_id);
    if (!recording?.storage_key) return void (await settle({ status: 'failed', reason: 'The recording of this call is not stored.' }));
    const bytes = await buffer(ctx.recordings.store.read(recording.storage_key));
    const heard = await transcribeCall(options.engine!, bytes);
    const text = heard.segments.map((s) => s.text).join(' ');
    const completed = {
      status: 'completed' as const,
      engine: options.engine!.name,
      reason: null,
      segments: JSON.stringify(heard.segments),
      text,
      talk_member_ms: Math.round(heard.talkTime.member * 1000),
      talk_contact_ms: Math.round(heard.talkTime.contact * 1000),
      duration_ms: Math.round(heard.durationSeconds * 1000),
      completed_at: now(),
    };
    if (!(await settle(completed, false))) return;
    const summary = (options.summarizer ?? ruleSummarizer).summarize({
      durationSeconds: heard.durationSeconds,
      talkTime: heard.talkTime,
      segments: heard.segments,
      callDate: new Date(parseTimestamp(recording.created_at)),
    });
    await settle({ status: 'summarized', summary });
  } catch (error) {
    await failedTry(ctx, transcript, settle, error);
  }
}

async function failedTry(
  ctx: TranscriptionDeps,
  transcript: Transcript,
  settle: (values: Parameters<typeof repo.settleTranscript>[3]) => Promise<boolean>,
  error: unknown,
) {
  const reason =
    error instanceof AudioDecodeError
      ? `The recording could not be read: ${error.message}`
      : error instanceof TranscriptionFailedError
        ? `Transcription failed: ${error.message}`
        : 'Transcription failed on an unexpected error.';
  const last = transcript.attempts >= TRIES || error instanceof AudioDecodeError;
  ctx.logger.warn({ err: error, transcript: transcript.id, attempt: transcript.attempts, retry: !last }, 'transcription failed');
  await settle(
    last ? { status: 'failed', reason } : { status: 'queued', reason, next_attempt_at_ms: nowMs() + RETRY_AFTER_MS * transcript.attempts },
  );
}
