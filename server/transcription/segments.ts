/*
 * From two channels' words to a transcript: a segment is one speaker's run of words with no pause longer than
 * ~0.7 s inside (about where a turn or a sentence ends in conversation), and the segments of both speakers are
 * interleaved by start time. Talk time comes from the channels' sound (levels.ts), not from the words.
 */
import { talkSeconds } from '../audio/levels.js';
import type { Speaker } from '../audio/pcm.js';
import type { Word } from './engine.js';

export type Segment = { speaker_label: Speaker; start: number; end: number; text: string; words: Word[] };

export const SEGMENT_PAUSE_SECONDS = 0.7;

function segmentsOf(speaker: Speaker, words: Word[], pauseSeconds: number): Segment[] {
  const runs: Word[][] = [];
  for (const word of words) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && word.start - last.end <= pauseSeconds) run.push(word);
    else runs.push([word]);
  }
  return runs.map((run) => ({
    speaker_label: speaker,
    start: run[0]!.start,
    end: run.at(-1)!.end,
    text: run.map((w) => w.text).join(' '),
    words: run,
  }));
}

/** Both speakers' segments, ordered by start (the member first when two start together). */
export function segmentWords(words: Record<Speaker, Word[]>, pauseSeconds = SEGMENT_PAUSE_SECONDS): Segment[] {
  const all = [...segmentsOf('member', words.member, pauseSeconds), ...segmentsOf('contact', words.contact, pauseSeconds)];
  return all.sort((a, b) => a.start - b.start || (a.speaker_label === 'member' ? -1 : 1));
}

/** Seconds each speaker talks, measured on their channel's audio, to the hundredth. */
export function talkTime(channels: Record<Speaker, Float32Array>, sampleRate: number): Record<Speaker, number> {
  const round = (seconds: number) => Math.round(seconds * 100) / 100;
  return { member: round(talkSeconds(channels.member, sampleRate)), contact: round(talkSeconds(channels.contact, sampleRate)) };
}
