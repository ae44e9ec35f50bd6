/*
 * A two-channel call recording to a transcript: decoded, split into the member's and the contact's channels,
 * each brought to 16 kHz and given to its own recognizer (the two run side by side: a call costs two processes
 * while it is transcribed), then segmented and measured.
 */
import type { TranscriptionEngine, Word } from './engine.js';
import { prepareCallOffThread } from './prepare-call.js';
import { type Segment, segmentWords } from './segments.js';

export type CallTranscript = {
  durationSeconds: number;
  talkTime: { member: number; contact: number };
  segments: Segment[];
  words: { member: Word[]; contact: Word[] };
};

/** Throws AudioDecodeError for bytes that are not a whole two-channel recording, and the engine's errors. */
export async function transcribeCall(
  engine: TranscriptionEngine,
  recording: Uint8Array,
  options: { signal?: AbortSignal } = {},
): Promise<CallTranscript> {
  const { member, contact, durationSeconds, talkTime } = await prepareCallOffThread(recording);
  const [memberWords, contactWords] = await Promise.all([engine.transcribe(member, options), engine.transcribe(contact, options)]);
  const words = { member: memberWords.words, contact: contactWords.words };
  return { durationSeconds, talkTime, segments: segmentWords(words), words };
}
