import { describe, expect, it, onTestFinished, vi } from 'vitest';

describe('calendar days wherever the browser is', () => {
  it('says a date without a time as that day west of UTC too, in the same format as the usage charts', async () => {
    /* West of UTC a day's UTC midnight falls on the evening before: formatted as an instant it would be said a day early. */
    const tz = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    onTestFinished(() => {
      // The test files of a worker share its process (vitest.config.ts): the next ones run where they expect to.
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });
    // A fresh copy of the module: its formats take the time zone when they are made, and another file of this worker
    // may have loaded it already.
    vi.resetModules();
    const { formatDate, formatDay } = await import('./format');
    expect(new Date('2026-03-04T00:00:00Z').getDate()).toBe(3);
    expect(formatDate('2026-03-04')).toBe(formatDay('2026-03-04'));
    expect(formatDay('2026-03-04')).toMatch(/\b4\b/);
    expect(formatDay('2026-03-04', 'short')).not.toMatch(/2026/);
    expect(formatDay('2026-11-16', 'weekday')).toMatch(/Mon/);
    /* An instant is still said where the browser is: 03:00 UTC on the 4th is the evening of the 3rd in Los Angeles. */
    expect(formatDate('2026-03-04 03:00:00')).toMatch(/\b3\b/);
  });
});
