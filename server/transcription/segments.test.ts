import { expect, it } from 'vitest';
import type { Word } from './engine.js';
import { segmentWords, talkTime } from './segments.js';

const w = (text: string, start: number, end: number): Word => ({ text, start, end, confidence: 0.9 });

it("cuts each speaker's words at pauses longer than 0.7 s and interleaves both speakers by start", () => {
  const segments = segmentWords({
    member: [w('hi', 0.5, 0.7), w('there', 0.8, 1.1), w('how', 1.9, 2.1), w('are', 2.2, 2.3), w('you', 2.3, 2.6)],
    contact: [w('fine', 2.9, 3.3), w('thanks', 3.4, 3.8), w('bye', 1.9, 2.0)].sort((a, b) => a.start - b.start),
  });
  expect(segments.map(({ speaker_label, start, end, text }) => ({ speaker_label, start, end, text }))).toEqual([
    { speaker_label: 'member', start: 0.5, end: 1.1, text: 'hi there' },
    { speaker_label: 'member', start: 1.9, end: 2.6, text: 'how are you' },
    { speaker_label: 'contact', start: 1.9, end: 2.0, text: 'bye' },
    { speaker_label: 'contact', start: 2.9, end: 3.8, text: 'fine thanks' },
  ]);
  expect(segments[1]!.words.map((x) => x.text)).toEqual(['how', 'are', 'you']);
  expect(segmentWords({ member: [], contact: [] })).toEqual([]);
});

it("measures talk time on each channel's sound, to the hundredth of a second", () => {
  const rate = 16000;
  const speech = (seconds: number, total: number) =>
    Float32Array.from({ length: rate * total }, (_, i) => (i < rate * seconds ? 0.1 * Math.sin((2 * Math.PI * 150 * i) / rate) : 0));
  expect(talkTime({ member: speech(2, 5), contact: speech(3.5, 5) }, rate)).toEqual({ member: 2, contact: 3.5 });
});
