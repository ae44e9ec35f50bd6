/*
 * What turns speech into timed words. The default engine is CMU PocketSphinx (pocketsphinx.ts); a better one (a
 * whisper model given by path, say) implements the same type, and nothing past this interface changes.
 */

/** A recognised word; times in seconds from the start of the audio given. */
export type Word = { text: string; start: number; end: number; confidence: number | null };

export type Availability = { available: true } | { available: false; reason: string };

export type TranscriptionEngine = {
  name: string;
  /** Whether this server can transcribe, and if not, a reason a person can act on. */
  availability(): Promise<Availability>;
  /** Words of mono 16 kHz speech (one speaker's channel), in order. An abort (a shutting-down server) stops it. */
  transcribe(pcm: Float32Array, options?: { signal?: AbortSignal }): Promise<{ words: Word[] }>;
};

/** The engine cannot run here (not installed, models missing): the transcript says so rather than failing. */
export class TranscriptionUnavailableError extends Error {
  override name = 'TranscriptionUnavailableError';
}

/** The engine ran and failed (a time-out, a crash): worth a retry, then a failed transcript with this reason. */
export class TranscriptionFailedError extends Error {
  override name = 'TranscriptionFailedError';
}
