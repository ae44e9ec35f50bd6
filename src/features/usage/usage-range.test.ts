import { describe, expect, it } from 'vitest';
import { MAX_USAGE_DAYS } from '../../../server/contracts/dial-sessions';
import { addDays, daysBetween, isDay, PRESETS, rangeFormSchema, rangeProblem, TOO_LONG } from './usage-range';

const preset = (id: string, today: string) => PRESETS.find((p) => p.id === id)!.range(today);

describe('usage date ranges', () => {
  it.each([
    ['2026-11-23', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-05', false],
    ['', false],
  ])('reads %s as a day: %s', (value, expected) => expect(isDay(value)).toBe(expected));

  it('counts whole UTC days across months, years and daylight-saving changes', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-03-01', '2026-11-01')).toBe(245);
  });

  it.each([
    ['last-7', '2026-11-23', { start: '2026-11-17', end: '2026-11-23' }],
    ['last-30', '2026-11-23', { start: '2026-10-25', end: '2026-11-23' }],
    ['this-month', '2026-11-23', { start: '2026-11-01', end: '2026-11-23' }],
    ['this-month', '2026-11-01', { start: '2026-11-01', end: '2026-11-01' }],
    ['last-7', '2026-03-02', { start: '2026-02-24', end: '2026-03-02' }],
  ])('%s on %s is %o', (id, today, range) => expect(preset(id, today)).toEqual(range));

  it(`accepts the end ${MAX_USAGE_DAYS} days after the start, as the API does, and refuses a day more`, () => {
    expect(rangeProblem({ start: '2026-01-01', end: addDays('2026-01-01', MAX_USAGE_DAYS) })).toBeNull();
    expect(rangeProblem({ start: '2026-01-01', end: addDays('2026-01-01', MAX_USAGE_DAYS + 1) })).toBe(TOO_LONG);
    expect(rangeProblem({ start: '2026-11-23', end: '2026-11-23' })).toBeNull();
    expect(rangeProblem({ start: '2026-11-23', end: '2026-11-22' })).toMatch(/on or after the start/);
  });

  it('puts each problem of the form on the field it concerns', () => {
    const issues = (start: string, end: string) => {
      const result = rangeFormSchema.safeParse({ start, end });
      return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(issues('2026-11-01', '2026-11-23')).toEqual([]);
    expect(issues('', '2026-11-23')).toEqual([['start', 'Enter a start date.']]);
    expect(issues('2026-02-30', '')).toEqual([
      ['start', expect.stringMatching(/as a date/)],
      ['end', 'Enter an end date.'],
    ]);
    expect(issues('2026-01-01', '2026-11-23')).toEqual([['end', TOO_LONG]]);
  });
});
