/*
 * Date ranges of the usage screen: whole days YYYY-MM-DD in UTC, as the API counts them, with the API's limit
 * (the end at most 90 days after the start) checked in the form before any request.
 */
import { z } from 'zod';
import { MAX_USAGE_DAYS } from '../../../server/contracts/dial-sessions';
import type { DayRange } from '../../api/usage';
import { formatDay } from '../../lib/format';

const DAY_MS = 86_400_000;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

export const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The browser's today in UTC: the fallback when the server's clock cannot be read. */
export const browserToday = () => new Date().toISOString().slice(0, 10);

export type Preset = { id: string; label: string; range: (today: string) => DayRange };

export const PRESETS: readonly Preset[] = [
  { id: 'last-7', label: 'Last 7 days', range: (today) => ({ start: addDays(today, -6), end: today }) },
  { id: 'last-30', label: 'Last 30 days', range: (today) => ({ start: addDays(today, -29), end: today }) },
  { id: 'this-month', label: 'This month', range: (today) => ({ start: `${today.slice(0, 8)}01`, end: today }) },
];

export const defaultRange = (today: string) => PRESETS[0]!.range(today);

export const sameRange = (a: DayRange, b: DayRange) => a.start === b.start && a.end === b.end;

/** The end may be at most 90 days after the start, as the API allows. */
export const TOO_LONG = `Choose a range of at most ${MAX_USAGE_DAYS} days.`;

/** The problem with a range, as the form shows it under the end date; null when the API would accept it. */
export function rangeProblem(range: DayRange): string | null {
  if (range.end < range.start) return 'The end date must be on or after the start date.';
  if (daysBetween(range.start, range.end) > MAX_USAGE_DAYS) return TOO_LONG;
  return null;
}

export const rangeFormSchema = z
  .object({
    start: z
      .string()
      .trim()
      .min(1, { error: 'Enter a start date.' })
      .refine((v) => !v || isDay(v), { error: 'Enter the start date as a date, such as 2026-11-02.' }),
    end: z
      .string()
      .trim()
      .min(1, { error: 'Enter an end date.' })
      .refine((v) => !v || isDay(v), { error: 'Enter the end date as a date, such as 2026-11-08.' }),
  })
  .superRefine((range, ctx) => {
    if (!isDay(range.start) || !isDay(range.end)) return;
    const problem = rangeProblem(range);
    if (problem) ctx.addIssue({ code: 'custom', path: ['end'], message: problem });
  });

export type RangeFormValues = z.input<typeof rangeFormSchema>;

/** "Nov 17, 2026 – Nov 23, 2026" (or one day). */
export function describeRange(range: DayRange): string {
  const [start, end] = [range.start, range.end].map((d) => formatDay(d));
  return start === end ? start! : `${start} – ${end}`;
}
