import { describe, expect, it } from 'vitest';
import { mentionIn } from './dates.js';
import { normalizeText } from './words.js';

/** Wednesday, 8 October 2025, 16:00 UTC. */
const CALL = new Date('2025-10-08T16:00:00Z');

const day = (text: string, callDate = CALL) => mentionIn(normalizeText(text), callDate).date?.toISOString().slice(0, 10) ?? null;
const time = (text: string) => {
  const m = mentionIn(normalizeText(text), CALL);
  return m.hour === null ? m.partOfDay : `${m.hour}:${String(m.minute).padStart(2, '0')}`;
};

describe('days said on a call', () => {
  it.each([
    ['How about Thursday at 2 pm?', '2025-10-09'],
    ['Wednesday works', '2025-10-15'],
    ['next Tuesday', '2025-10-14'],
    ['next Monday then', '2025-10-13'],
    ['tomorrow morning', '2025-10-09'],
    ['I will send it today', '2025-10-08'],
    ['can you call me back next week', '2025-10-13'],
    ['on the fourteenth', '2025-10-14'],
    ['the 3rd', '2025-11-03'],
    ['the twenty first', '2025-10-21'],
    ['October 14th', '2025-10-14'],
    ['the fourteenth of January', '2026-01-14'],
    ['next Tuesday the fourteenth', '2025-10-14'],
    ['Friday the fourteenth', '2025-11-14'],
    ['every day', null],
    ['in the first week of calls', null],
    ['may I speak with Jordan', null],
    ['we are closing the quarter this year', null],
  ])('%s -> %s', (text, expected) => {
    expect(day(text)).toBe(expected);
  });

  it('takes a weekday said on its own day to mean the next week', () => {
    expect(day('Wednesday', CALL)).toBe('2025-10-15');
    expect(day('next Sunday', new Date('2025-10-12T10:00:00Z'))).toBe('2025-10-19');
  });
});

describe('times said on a call', () => {
  it.each([
    ['Thursday at two pm', '14:00'],
    ['at 2:30 p.m.', '14:30'],
    ["ten o'clock in the morning", '10:00'],
    ['let us say ten o clock', '10:00'],
    ['at three', '15:00'],
    ['at eight in the evening', '20:00'],
    ['eleven thirty am', '11:30'],
    ['at noon', '12:00'],
    ['Monday morning is fine', 'morning'],
    ['we have twelve sales reps', null],
    ['one button', null],
  ])('%s -> %s', (text, expected) => {
    expect(time(text)).toBe(expected);
  });
});
