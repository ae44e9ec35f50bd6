import { describe, expect, it } from 'vitest';
import { describeOutcomes, describeTrend, NO_DISPOSITION, outcomeRows, trendPoints } from './usage-series';

const day = (date: string, calls: number, connected = 0) => ({ date, calls, connected, voicemail: 0, talktime_minutes: 0 });

describe('the trend of calls per day', () => {
  it('names each UTC day for the axis and the table, whatever the zone', () => {
    expect(trendPoints([day('2026-11-17', 3)])).toEqual([{ ...day('2026-11-17', 3), tick: 'Nov 17', day: 'Tue, Nov 17, 2026' }]);
  });

  it.each([
    [
      [day('2026-11-17', 3, 1), day('2026-11-18', 9, 4), day('2026-11-19', 0)],
      '12 calls and 5 connected over 3 days; the most calls, 9, on Wed, Nov 18, 2026.',
    ],
    [[day('2026-11-17', 0), day('2026-11-18', 0)], '0 calls and 0 connected over 2 days.'],
    [[day('2026-11-17', 1, 1)], '1 call and 1 connected over 1 day.'],
  ])('is told in a sentence: %j', (days, sentence) => {
    expect(describeTrend(trendPoints(days))).toBe(sentence);
  });
});

describe('the outcomes by disposition', () => {
  const rows = outcomeRows([
    { disposition: 'Interested', calls: 6 },
    { disposition: '', calls: 2 },
    { disposition: 'Busy', calls: 1 },
    { disposition: 'Voicemail', calls: 1 },
  ]);

  it('names calls without a disposition and gives each label its share', () => {
    expect(rows).toEqual([
      { label: 'Interested', calls: 6, share: 0.6 },
      { label: NO_DISPOSITION, calls: 2, share: 0.2 },
      { label: 'Busy', calls: 1, share: 0.1 },
      { label: 'Voicemail', calls: 1, share: 0.1 },
    ]);
  });

  it('tells the largest in a sentence, and how many more there are', () => {
    expect(describeOutcomes(rows)).toBe('Interested 6 (60%), No disposition 2 (20%), Busy 1 (10%) and 1 more outcome.');
    expect(describeOutcomes(rows.slice(0, 2))).toBe('Interested 6 (60%), No disposition 2 (20%).');
  });
});
