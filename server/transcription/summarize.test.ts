import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Speaker } from '../audio/pcm.js';
import { CONVERSATIONS } from '../audio/conversations.js';
import { ruleSummarizer, type SummaryInput } from './summarize.js';

/** Wednesday, 8 October 2025. */
const callDate = new Date('2025-10-08T16:00:00Z');

type FixtureCall = Omit<SummaryInput, 'callDate'> & { id: string };
/* What PocketSphinx made of the rendered calls (bench/transcription.ts --fixture writes it). */
const asr: FixtureCall[] = JSON.parse(
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/pocketsphinx-calls.json'), 'utf8'),
);

const EXPECTED: Record<string, string> = {
  'meeting-thursday':
    'A 52-second call; the contact spoke 42% of the time. The contact asked what the call was about. Next step: a demo on Thursday, October 9, 2025 at 2 pm.',
  'meeting-date':
    'A 54-second call; the contact spoke 40% of the time. The contact asked how it works. Next step: a meeting on Tuesday, October 14, 2025 at 10 am.',
  'price-objection':
    'A 40-second call; the contact spoke 36% of the time. The contact objected to the price or budget and said they were not interested. They asked what the call was about and about the price. No next step was agreed.',
  'call-back-later':
    'A 38-second call; the contact spoke 46% of the time. The contact said it was a bad time. They asked about the contract terms. Next step: a call back on Monday, October 13, 2025, in the morning.',
  'wrong-person': 'A 21-second call; the contact spoke 44% of the time. The contact said it was the wrong number. No next step was agreed.',
  'integration-question':
    'A 41-second call; the contact spoke 43% of the time. The contact said they already use another tool. They asked whether it works with Salesforce, why they should switch and about the price. Next step: the pricing by email today (Wednesday, October 8, 2025).',
  gatekeeper:
    'A 35-second call; the contact spoke 53% of the time. A gatekeeper answered and said they are not the one who decides. Next step: an email.',
};

const asrOf = (id: string) => asr.find((c) => c.id === id)!;

describe('rule summarizer on the rendered calls', () => {
  it.each(CONVERSATIONS.map((c) => [c.id, c] as const))('%s, from the script', (id, conversation) => {
    const segments = conversation.turns.map((t) => ({ speaker_label: t.speaker, text: t.text }));
    expect(ruleSummarizer.summarize({ ...asrOf(id), segments, callDate })).toBe(EXPECTED[id]);
  });

  it.each(CONVERSATIONS.map((c) => [c.id] as const))('%s, from what PocketSphinx heard', (id) => {
    expect(ruleSummarizer.summarize({ ...asrOf(id), callDate })).toBe(EXPECTED[id]);
  });
});

const lines = (...said: [Speaker, string][]) => said.map(([speaker_label, text]) => ({ speaker_label, text }));
const summary = (segments: SummaryInput['segments'], durationSeconds = 185, talkTime = { member: 59, contact: 41 }) =>
  ruleSummarizer.summarize({ durationSeconds, talkTime, segments, callDate });

describe('rule summarizer on other calls', () => {
  it.each([
    [
      'a long call, and a silent one',
      summary([]),
      'A 3-minute call; the contact spoke 41% of the time. The contact raised no objections or questions. No next step was agreed.',
    ],
    [
      'nobody talking',
      summary([], 12, { member: 0, contact: 0 }),
      'A 12-second call; nobody spoke. The contact raised no objections or questions. No next step was agreed.',
    ],
    [
      'a budget cut and a question in misheard words',
      summary(lines(['contact', 'honestly our budget is gone for this year']), 40),
      'A 40-second call; the contact spoke 41% of the time. The contact objected to the price or budget. No next step was agreed.',
    ],
    [
      'a question with no known topic, quoted',
      summary(lines(['contact', 'does it record calls from mobile phones'])),
      'A 3-minute call; the contact spoke 41% of the time. The contact asked "does it record calls from mobile phones". No next step was agreed.',
    ],
    [
      'a demo tomorrow at 3:30',
      summary(lines(['member', 'can I show you a demo'], ['contact', 'sure tomorrow at 3:30 works'])),
      'A 3-minute call; the contact spoke 41% of the time. The contact raised no objections or questions. Next step: a demo on Thursday, October 9, 2025 at 3:30 pm.',
    ],
    [
      'a call back next week',
      summary(lines(['contact', "I'm swamped, call me back next week"])),
      'A 3-minute call; the contact spoke 41% of the time. The contact said it was a bad time. Next step: a call back the week of Monday, October 13, 2025.',
    ],
    [
      'a HubSpot question and a decision maker',
      summary(lines(['contact', 'can it sync with hub spot'], ['contact', 'my boss decides that, I am not the right person'])),
      'A 3-minute call; the contact spoke 41% of the time. The contact said they are not the one who decides. They asked whether it works with HubSpot. No next step was agreed.',
    ],
  ])('%s', (_, actual, expected) => {
    expect(actual).toBe(expected);
  });
});
