/*
 * The usage charts' data: the days of the trend and the outcomes by disposition, each with the sentence a screen
 * reader hears for the chart (the table beside it has every figure).
 */
import type { UsageDayRecord, UsageDispositionRecord } from '../../../server/contracts/dial-sessions';
import { formatCount, formatDay } from '../../lib/format';

/** How the screen names the calls the API counts under '' (not dispositioned yet). */
export const NO_DISPOSITION = 'No disposition';

export type TrendPoint = UsageDayRecord & {
  /** The axis tick: "Nov 17". */
  tick: string;
  /** The tooltip's and the table's day: "Mon, Nov 17, 2026". */
  day: string;
};

export type OutcomeRow = { label: string; calls: number; /** calls / all calls of the range, 0 to 1. */ share: number };

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

export function trendPoints(days: UsageDayRecord[]): TrendPoint[] {
  return days.map((d) => {
    return { ...d, tick: formatDay(d.date, 'short'), day: formatDay(d.date, 'weekday') };
  });
}

/** "40 calls and 12 connected over 7 days; the most calls, 9, on Wed, Nov 19, 2026." */
export function describeTrend(points: TrendPoint[]): string {
  const calls = points.reduce((n, p) => n + p.calls, 0);
  const connected = points.reduce((n, p) => n + p.connected, 0);
  const overall = `${formatCount(calls, 'call', 'calls')} and ${connected.toLocaleString()} connected over ${formatCount(points.length, 'day', 'days')}`;
  const busiest = points.reduce<TrendPoint | null>((best, p) => (p.calls > (best?.calls ?? 0) ? p : best), null);
  return busiest && points.length > 1 ? `${overall}; the most calls, ${busiest.calls.toLocaleString()}, on ${busiest.day}.` : `${overall}.`;
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
    .map((r) => `${r.label} ${r.calls.toLocaleString()} (${formatShare(r.share)})`)
    .join(', ');
  const rest = rows.length - shown;
  return rest > 0 ? `${named} and ${formatCount(rest, 'more outcome', 'more outcomes')}.` : `${named}.`;
}
