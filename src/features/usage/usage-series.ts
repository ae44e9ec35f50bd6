/*
 * The usage charts' data: the days of the trend and the outcomes by disposition, each with the sentence a screen
 * reader hears for the chart (the table beside it has every figure).
 */
import type { UsageDayRecord, UsageDispositionRecord } from '../../../server/contracts/dial-sessions';

/** How the screen names the calls the API counts under '' (not dispositioned yet). */
export const NO_DISPOSITION = 'No disposition';

export type TrendPoint = UsageDayRecord & {
  /** The axis tick: "Nov 17". */
  tick: string;
  /** The tooltip's and the table's day: "Mon, Nov 17, 2026". */
  day: string;
};

export type OutcomeRow = { label: string; calls: number; /** calls / all calls of the range, 0 to 1. */ share: number };

const tickFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function trendPoints(days: UsageDayRecord[]): TrendPoint[] {
  return days.map((d) => {
    const date = new Date(`${d.date}T00:00:00Z`);
    return { ...d, tick: tickFormat.format(date), day: dayFormat.format(date) };
  });
}

/** "40 calls and 12 connected over 7 days; the most calls, 9, on Wed, Nov 19, 2026." */
export function describeTrend(points: TrendPoint[]): string {
  const calls = points.reduce((n, p) => n + p.calls, 0);
  const connected = points.reduce((n, p) => n + p.connected, 0);
  const overall = `${plural(calls, 'call', 'calls')} and ${connected.toLocaleString('en-US')} connected over ${plural(points.length, 'day', 'days')}`;
  const busiest = points.reduce<TrendPoint | null>((best, p) => (p.calls > (best?.calls ?? 0) ? p : best), null);
  return busiest && points.length > 1
    ? `${overall}; the most calls, ${busiest.calls.toLocaleString('en-US')}, on ${busiest.day}.`
    : `${overall}.`;
}

export function outcomeRows(dispositions: UsageDispositionRecord[]): OutcomeRow[] {
  const total = dispositions.reduce((n, d) => n + d.calls, 0);
  return dispositions.map((d) => ({ label: d.disposition || NO_DISPOSITION, calls: d.calls, share: total ? d.calls / total : 0 }));
}

export const formatShare = (share: number) => percent.format(share);

/** "Interested 12 (40%), Voicemail 9 (30%), No Answer 6 (20%) and 2 more outcomes." */
export function describeOutcomes(rows: OutcomeRow[], shown = 3): string {
  const named = rows
    .slice(0, shown)
    .map((r) => `${r.label} ${r.calls.toLocaleString('en-US')} (${formatShare(r.share)})`)
    .join(', ');
  const rest = rows.length - shown;
  return rest > 0 ? `${named} and ${plural(rest, 'more outcome', 'more outcomes')}.` : `${named}.`;
}
