/* Formatting helpers for what the API returns (strings for numbers, zero dates for unset). */

const ZERO_DATE = /^0000-00-00/;

/** Parses 'YYYY-MM-DD HH:MM:SS' (UTC on the server) or 'YYYY-MM-DD'; unset dates give null. */
export function parseApiDate(value: string | null | undefined): Date | null {
  if (!value || ZERO_DATE.test(value)) return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : `${value.replace(' ', 'T')}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/*
 * Every screen's dates in one format, the browser's locale: "Nov 17, 2026", "Nov 17, 2026, 3:05 PM", and for charts
 * "Nov 17" and "Mon, Nov 17, 2026". A date without a time (a consent date, a usage day) is a calendar day, not an
 * instant: it is said as that day wherever the browser is (UTC), not as the day a UTC midnight falls on locally.
 */
const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const dayFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayTickFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const weekdayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function formatDate(value: string | null | undefined, fallback = '—'): string {
  const date = parseApiDate(value);
  if (!date) return fallback;
  return (DAY_ONLY.test(value!) ? dayFormat : dateFormat).format(date);
}

/** A calendar day 'YYYY-MM-DD' as "Nov 17, 2026"; `short` as a chart's tick, "Nov 17"; `weekday`, "Mon, Nov 17, 2026". */
export function formatDay(day: string, style: 'long' | 'short' | 'weekday' = 'long'): string {
  const date = new Date(`${day}T00:00:00Z`);
  return (style === 'short' ? dayTickFormat : style === 'weekday' ? weekdayFormat : dayFormat).format(date);
}

export function formatDateTime(value: string | null | undefined, fallback = '—'): string {
  const date = parseApiDate(value);
  return date ? dateTimeFormat.format(date) : fallback;
}

/** A date-only value (consent date) as YYYY-MM-DD for a date input, or ''. */
export function toDateInput(value: string | null | undefined): string {
  if (!value || ZERO_DATE.test(value)) return '';
  const match = value.match(/^\d{4}-\d{2}-\d{2}/);
  return match ? match[0] : '';
}

/** North American numbers as (555) 123-4567; anything else as given. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length === 10) return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
  return value;
}

export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last]
    .map((s) => (s ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

export function formatCount(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** The rating as a number 1..5, or null when unset ('0' or ''). */
export function ratingValue(value: string | number | null | undefined): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 5 ? n : null;
}

/** The parts of an address as contact records carry it (`primary_address`). */
export type AddressParts = {
  address: string;
  address_2: string;
  city: string;
  state: string;
  state_other?: string;
  zip: string;
  country: string;
};

/** An address as lines: street, second line, "City, ST 12345", country (empty parts left out). */
export function addressLines(a: AddressParts | null | undefined): string[] {
  if (!a) return [];
  const cityLine = [a.city, [a.state || a.state_other, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [a.address, a.address_2, cityLine, a.country].filter(Boolean);
}

/** A custom field's value as people read it: a checkbox Yes/No, a date in the app's one date format, the rest as stored. */
export function formatFieldValue(typeId: number | string, value: string | null | undefined, fallback = '—'): string {
  if (value === null || value === undefined || value === '') return fallback;
  switch (Number(typeId)) {
    case 2:
      return value === '1' ? 'Yes' : value === '0' ? 'No' : value;
    case 3:
      return formatDate(value, value);
    default:
      return value;
  }
}

export type NoteEntry = { when: string; author: string; text: string; raw: string };

/** notes.notes is the history newest first, one entry per paragraph ("YYYY-MM-DD HH:MM:SS - Author: text"). */
export function noteEntries(history: string | null | undefined): NoteEntry[] {
  return (history ?? '')
    .split(/\n\s*\n/)
    .map((e) => e.trim())
    .filter(Boolean)
    .map((raw) => {
      const match = raw.match(/^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) - ([^:\n]+): ([\s\S]*)$/);
      return match ? { when: match[1]!, author: match[2]!, text: match[3]!, raw } : { when: '', author: '', text: raw, raw };
    });
}

/** A phone's type as the API names it ('WORK') in words ("work"; "Work" at the start of a phrase). */
export function phoneTypeWord(typeName: string | null | undefined, capital = false): string {
  const word = (typeName ?? '').toLowerCase();
  return capital && word ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
