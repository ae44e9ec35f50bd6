/*
 * Days and times said on a call, resolved against the call's date (UTC: the contact's time zone is not known).
 *   "Thursday"            the next Thursday after the call      "next Tuesday"  the Tuesday of the next week
 *   "tomorrow", "today"   the day after, the day of the call    "next week"     the week from the next Monday
 *   "the fourteenth", "the 14th", "October 14th"   the next such date; with a weekday, the next one on that weekday
 *   "two pm", "at 2:30", "ten o'clock", "noon"; an hour with no am/pm is 7-11 am or 12-6 pm (office hours);
 *   "in the morning" / "afternoon" / "evening" when no hour is said.
 * Each segment gives at most one mention: its last day and its last time.
 */

export type When = { date: Date; week: boolean; hour: number | null; minute: number; partOfDay: PartOfDay | null };
export type PartOfDay = 'morning' | 'afternoon' | 'evening';
export type Mention = { date: Date | null; week: boolean; hour: number | null; minute: number; partOfDay: PartOfDay | null };

const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const UNITS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const ORDINALS = [
  '',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];
const MINUTES: Record<string, number> = { fifteen: 15, thirty: 30, 'forty five': 45, 'o five': 5 };
/** "the first week", "the second time": an ordinal followed by these is not a day of the month. */
const NOT_A_DAY = /^(week|weeks|time|times|thing|things|one|step|call|calls|quarter|month|year|day|few|person|place)$/;

const ordinal = (word: string, next: string | undefined): number | null => {
  const digits = /^(\d{1,2})(st|nd|rd|th)$/.exec(word);
  if (digits) return Number(digits[1]);
  if (word === 'twenty' || word === 'thirty') {
    const unit = next ? ORDINALS.indexOf(next) : -1;
    if (unit >= 1 && unit <= 9) return (word === 'twenty' ? 20 : 30) + unit;
    return null;
  }
  if (word === 'thirtieth') return 30;
  const index = ORDINALS.indexOf(word);
  return index > 0 ? index : null;
};

const utcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

type Said = {
  weekday: number | null;
  next: boolean;
  day: number | null;
  month: number | null;
  relative: 'today' | 'tomorrow' | 'next week' | null;
};

function saidDay(words: string[]): Said {
  const said: Said = { weekday: null, next: false, day: null, month: null, relative: null };
  words.forEach((word, i) => {
    const weekday = WEEKDAYS.indexOf(word);
    if (weekday >= 0) Object.assign(said, { weekday, next: words[i - 1] === 'next' });
    if (word === 'today' || word === 'tomorrow') said.relative = word;
    if (word === 'week' && words[i - 1] === 'next') said.relative = 'next week';
    const month = MONTHS.indexOf(word);
    if (month >= 0 && (word !== 'may' || /^\d|^(the|first|second|third|[a-z]+th)$/.test(words[i + 1] ?? ''))) said.month = month;
    const day = ordinal(word, words[i + 1]);
    const afterThe = words[i - 1] === 'the' || (i > 0 && MONTHS.includes(words[i - 1]!)) || /^\d/.test(word);
    if (day && day <= 31 && afterThe && !NOT_A_DAY.test(words[i + (word === 'twenty' || word === 'thirty' ? 2 : 1)] ?? '')) said.day = day;
  });
  return said;
}

function resolveDay(said: Said, callDay: Date): { date: Date; week: boolean } | null {
  if (said.day !== null) return { date: dayOfMonth(said, callDay), week: false };
  if (said.weekday !== null) {
    if (said.next) {
      const nextMonday = addDays(callDay, (8 - callDay.getUTCDay()) % 7 || 7);
      return { date: addDays(nextMonday, (said.weekday + 6) % 7), week: false };
    }
    return { date: addDays(callDay, (said.weekday - callDay.getUTCDay() + 7) % 7 || 7), week: false };
  }
  if (said.relative === 'today') return { date: callDay, week: false };
  if (said.relative === 'tomorrow') return { date: addDays(callDay, 1), week: false };
  if (said.relative === 'next week') return { date: addDays(callDay, (8 - callDay.getUTCDay()) % 7 || 7), week: true };
  return null;
}

/** The first date on or after the call with that day (and month, if said) whose weekday matches, if one was said. */
function dayOfMonth(said: Said, callDay: Date): Date {
  const candidates: Date[] = [];
  for (let k = 0; k < 24 && candidates.length < 12; k++) {
    const month = callDay.getUTCMonth() + k;
    const date = new Date(Date.UTC(callDay.getUTCFullYear(), month, said.day!));
    if (date.getUTCDate() !== said.day || date < callDay) continue;
    if (said.month === null || date.getUTCMonth() === said.month) candidates.push(date);
  }
  return candidates.find((d) => said.weekday === null || d.getUTCDay() === said.weekday) ?? candidates[0] ?? callDay;
}

const TIME =
  /\b(?:(at) )?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?::(\d\d))?(?: (fifteen|thirty|forty five|o five))? ?(pm|am|o'clock)?\b/g;

/** A 24-hour hour from a 12-hour one: am/pm if said, else the part of the day if it fits, else office hours (7-11 am, 12-6 pm). */
function hourOf(hour: number, meridiem: string | undefined, part: PartOfDay | null): number {
  if (meridiem === 'pm' || (!meridiem && (part === 'afternoon' || part === 'evening') && hour < 12)) return (hour % 12) + 12;
  if (meridiem === 'am' || (!meridiem && part === 'morning' && hour >= 5)) return hour % 12;
  return hour <= 6 ? hour + 12 : hour;
}

function saidTime(words: string[]): { hour: number | null; minute: number; partOfDay: PartOfDay | null } {
  const text = words.join(' ');
  const part = /\bmorning\b/.test(text)
    ? 'morning'
    : /\bafternoon\b/.test(text)
      ? 'afternoon'
      : /\bevening\b|\btonight\b/.test(text)
        ? 'evening'
        : null;
  let found: { hour: number | null; minute: number } = { hour: null, minute: 0 };
  for (const [, at, hourWord, digits, minuteWord, suffix] of text.matchAll(TIME)) {
    const hour = /^\d/.test(hourWord!) ? Number(hourWord) : UNITS.indexOf(hourWord!);
    if ((!at && !suffix) || hour < 1 || hour > 12) continue;
    found = {
      hour: hourOf(hour, suffix === "o'clock" ? undefined : suffix, part),
      minute: digits ? Number(digits) : minuteWord ? MINUTES[minuteWord]! : 0,
    };
  }
  if (/\bnoon\b|\bmidday\b/.test(text)) found = { hour: 12, minute: 0 };
  return { ...found, partOfDay: found.hour === null ? part : null };
}

/** The day and time a normalised segment names, resolved against the call's date. */
export function mentionIn(text: string, callDate: Date): Mention {
  const words = text.split(' ');
  const day = resolveDay(saidDay(words), utcDay(callDate));
  return { date: day?.date ?? null, week: day?.week ?? false, ...saidTime(words) };
}
