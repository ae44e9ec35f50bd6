/*
 * A call's summary in three sentences, made offline from the transcript without a language model:
 *   1. its length and the talk split: the contact's share of the seconds either side talked (measured on audio);
 *   2. what the contact raised: objections (price or budget, timing, a competitor, authority, not interested),
 *      questions by topic, a wrong number, a gatekeeper (lexical cues over the contact's segments: cues.ts);
 *   3. the next step: the last day named on the call by either side (dates.ts: weekday names, "tomorrow",
 *      "next week", "the 14th", times like "2 pm" or "two o'clock"), resolved against the call's date, and what
 *      it is for (a call back, a demo, a meeting, something sent), read from the segments leading up to it.
 * The recognizer's mistakes are tolerated rather than corrected: a cue lost to a misheard word is not reported,
 * and the date comes from the last mention, which is usually the one both sides repeat when they agree.
 */
import type { Speaker } from '../audio/pcm.js';
import { contactRaised, type Objection, type Raised } from './cues.js';
import { type Mention, mentionIn, type When } from './dates.js';
import { normalizeText } from './words.js';

export type SummaryInput = {
  durationSeconds: number;
  talkTime: { member: number; contact: number };
  segments: { speaker_label: Speaker; text: string }[];
  /** When the call took place; days said on the call are resolved against its UTC date. */
  callDate: Date;
};

export type Summarizer = { summarize(input: SummaryInput): string };

export type NextStep = { what: string; when: When | null };

const STEPS: [RegExp, (text: string) => string][] = [
  [/\b(call (you|me|her|him|them) back|call back|call you again)\b/, () => 'a call back'],
  [/\bdemo\b/, () => 'a demo'],
  [/\b(meeting|invite|calendar)\b/, () => 'a meeting'],
  [
    /\bsend (you |me |her |him )?(the |an? |some )?(pricing|prices|price|details|information|proposal|quote|email)\b/,
    (t) => {
      const thing =
        /\bsend (?:you |me |her |him )?(?:the |an? |some )?(pricing|prices|price|details|information|proposal|quote|email)\b/.exec(t)?.[1];
      return thing === 'email' ? 'an email' : `the ${thing === 'prices' || thing === 'price' ? 'pricing' : thing} by email`;
    },
  ],
];
/** "She is in a meeting" is a gatekeeper's answer, not a meeting agreed. */
const NOT_A_STEP = /\b(she|he|they) (is|are) in a meeting\b/g;

function stepIn(texts: string[]): string | null {
  for (const [pattern, label] of STEPS) {
    const text = texts.map((t) => t.replace(NOT_A_STEP, '')).find((t) => pattern.test(t));
    if (text) return label(text);
  }
  return null;
}

/** The next step agreed on the call, if any: its purpose, and its day and time when one was named. */
export function findNextStep(segments: SummaryInput['segments'], callDate: Date): NextStep | null {
  const texts = segments.map((s) => normalizeText(s.text));
  const mentions = texts.map((t) => mentionIn(t, callDate));
  const k = mentions.findLastIndex((m) => m.date);
  if (k < 0) {
    const what = stepIn(texts.slice(-4));
    return what ? { what, when: null } : null;
  }
  const chosen = mentions[k]!;
  const sameDay = (m: Mention) => m.date?.getTime() === chosen.date!.getTime();
  const near = (i: number) => Math.abs(i - k) <= 2;
  const timed = [...mentions.entries()].reverse().find(([i, m]) => m.hour !== null && (sameDay(m) || (!m.date && near(i))))?.[1];
  const parted = [...mentions.entries()].reverse().find(([i, m]) => m.partOfDay && (sameDay(m) || (!m.date && near(i))))?.[1];
  const time = chosen.hour !== null ? chosen : timed;
  return {
    what: stepIn(texts.slice(Math.max(0, k - 3), k + 1)) ?? stepIn(texts) ?? 'a follow-up',
    when: {
      date: chosen.date!,
      week: chosen.week,
      hour: time?.hour ?? null,
      minute: time?.minute ?? 0,
      partOfDay: time ? null : (chosen.partOfDay ?? parted?.partOfDay ?? null),
    },
  };
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** "on Thursday, October 9, 2025 at 2 pm", "today (Wednesday, October 8, 2025)", "the week of Monday, ...". */
export function formatWhen(when: When, callDate: Date): string {
  const formatted = DATE_FORMAT.format(when.date);
  if (when.week) return `the week of ${formatted}`;
  const day = DATE_FORMAT.format(callDate) === formatted ? `today (${formatted})` : `on ${formatted}`;
  if (when.hour === null) return `${day}${when.partOfDay ? `, in the ${when.partOfDay}` : ''}`;
  const h = when.hour % 12 || 12;
  const clock =
    when.hour === 12 && when.minute === 0
      ? 'noon'
      : `${h}${when.minute ? `:${String(when.minute).padStart(2, '0')}` : ''} ${when.hour < 12 ? 'am' : 'pm'}`;
  return `${day} at ${clock}`;
}

const OBJECTION_PHRASES: Record<Objection, string> = {
  price: 'objected to the price or budget',
  timing: 'said it was a bad time',
  competitor: 'said they already use another tool',
  authority: 'said they are not the one who decides',
  'not-interested': 'said they were not interested',
};

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

function lengthSentence({ durationSeconds, talkTime }: SummaryInput): string {
  const seconds = Math.round(durationSeconds);
  const length = seconds < 60 ? `${seconds}-second` : `${Math.round(seconds / 60)}-minute`;
  const total = talkTime.member + talkTime.contact;
  const split = total > 0 ? `the contact spoke ${Math.round((100 * talkTime.contact) / total)}% of the time` : 'nobody spoke';
  return `A ${length} call; ${split}.`;
}

/** One sentence for the objections, one for the questions (or one saying there were none). */
function raisedSentences(raised: Raised): string[] {
  if (raised.wrongPerson) return ['The contact said it was the wrong number.'];
  const subject = raised.gatekeeper ? 'A gatekeeper answered and' : 'The contact';
  const objections = raised.objections.map((o) => OBJECTION_PHRASES[o]);
  const questions = raised.questions.slice(0, 3);
  const sentences = [
    ...(objections.length ? [`${subject} ${list(objections)}.`] : raised.gatekeeper ? ['A gatekeeper answered.'] : []),
    ...(questions.length ? [`${objections.length || raised.gatekeeper ? 'They' : 'The contact'} asked ${list(questions)}.`] : []),
  ];
  return sentences.length ? sentences : ['The contact raised no objections or questions.'];
}

function nextStepSentence(step: NextStep | null, callDate: Date): string {
  if (!step) return 'No next step was agreed.';
  return `Next step: ${step.what}${step.when ? ` ${formatWhen(step.when, callDate)}` : ''}.`;
}

export const ruleSummarizer: Summarizer = {
  summarize(input) {
    const contactTexts = input.segments.filter((s) => s.speaker_label === 'contact').map((s) => normalizeText(s.text));
    const step = findNextStep(input.segments, input.callDate);
    return [lengthSentence(input), ...raisedSentences(contactRaised(contactTexts)), nextStepSentence(step, input.callDate)].join(' ');
  },
};
