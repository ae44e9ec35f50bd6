import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_MS, nextAttemptAt } from './retry-policy.js';

const created = Date.UTC(2026, 2, 1, 12);
const fixed = (value: number) => () => value;
const HOUR = 3600_000;

/** Every attempt a callback gets when each one fails at once: their times, from the first (at creation) on. */
function schedule(random: () => number): number[] {
  const times = [created];
  for (;;) {
    const next = nextAttemptAt(created, times.length, times.at(-1)!, random);
    if (next === null) return times;
    times.push(next);
  }
}

describe('nextAttemptAt', () => {
  it.each([
    // attempts, random, delay in ms
    [1, 0, 2_500],
    [1, 0.5, 3_750],
    [1, 0.999, 4_998],
    [2, 0.5, 7_500],
    [3, 0.5, 15_000],
    [4, 0, 20_000],
    [10, 0.5, 1_920_000],
    [11, 0, 1_800_000],
    [11, 0.999, 3_598_200],
    [12, 0.5, 2_700_000],
    [500, 0.999, 3_598_200],
  ])('after attempt %i with random %f waits %i ms', (attempts, random, delay) => {
    const now = created + 60_000;
    expect(nextAttemptAt(created, attempts, now, fixed(random))).toBe(now + delay);
  });

  it.each([
    [GIVE_UP_AFTER_MS - 1, false],
    [GIVE_UP_AFTER_MS, true],
    [GIVE_UP_AFTER_MS + HOUR, true],
  ])('gives up %i ms after creation: %s', (age, givesUp) => {
    const next = nextAttemptAt(created, 40, created + age, fixed(0.5));
    expect(next === null).toBe(givesUp);
  });

  it('is pure: the same input gives the same answer', () => {
    const args = [created, 7, created + 600_000, fixed(0.3)] as const;
    expect(nextAttemptAt(...args)).toBe(nextAttemptAt(...args));
  });
});

describe('the schedule over 24 hours', () => {
  it.each([
    // random, attempts in all, hours from creation to the last attempt
    [0, 58, 24.21],
    [0.5, 42, 24.32],
    [0.999, 34, 24.41],
  ])('with random %f: %i attempts, the last %f h after creation', (random, count, lastHours) => {
    const times = schedule(fixed(random));
    expect(times).toHaveLength(count);
    expect((times.at(-1)! - created) / HOUR).toBeCloseTo(lastHours, 2);
    expect(times.at(-2)! - created).toBeLessThan(GIVE_UP_AFTER_MS);
    expect(times.at(-1)! - created).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
  });

  it.each([[0], [0.5], [0.999]])('with random %f never waits more than an hour, nor less than half the step', (random) => {
    const times = schedule(fixed(random));
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HOUR);
    expect(gaps.slice(0, 4)).toEqual([5_000, 10_000, 20_000, 40_000].map((step) => Math.round(step * (0.5 + random / 2))));
  });
});
