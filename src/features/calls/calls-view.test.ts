import { describe, expect, it } from 'vitest';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { bySession } from './calls-table';
import { activeLine } from './transcript-lines';
import { filtersOf, pageOf } from './use-call-filters';

describe("the Calls screen's filters in the URL", () => {
  const none = { date_start: '', date_end: '', member_id: '', session_id: '', disposition: '', connected: '', recorded: '', search: '' };

  it.each([
    ['', none],
    ['?date_start=2026-11-01&date_end=2026-11-23', { ...none, date_start: '2026-11-01', date_end: '2026-11-23' }],
    ['?member_id=12&session_id=40&connected=1&recorded=0', { ...none, member_id: '12', session_id: '40', connected: '1', recorded: '0' }],
    ['?disposition=Call%20Back&search=%20next%20week%20', { ...none, disposition: 'Call Back', search: 'next week' }],
    ['?date_start=23-11-2026&member_id=abc&connected=yes&recorded=2&session_id=-1', none],
  ])('reads %s, dropping what is malformed', (search, expected) => {
    expect(filtersOf(new URLSearchParams(search))).toEqual(expected);
  });

  it.each([
    ['', 1],
    ['?page=3', 3],
    ['?page=0', 1],
    ['?page=x', 1],
    ['?page=2.5', 1],
  ])('reads the page of %s', (search, page) => {
    expect(pageOf(new URLSearchParams(search))).toBe(page);
  });
});

describe('the line being played', () => {
  const segments = [0.5, 4, 9].map((start) => ({
    speaker: 'Member',
    speaker_label: 'member' as const,
    start,
    end: start + 2,
    text: 'x',
    words: [],
  }));
  it.each([
    [0, -1],
    [0.5, 0],
    [3, 0],
    [4, 1],
    [8.9, 1],
    [8.96, 2],
    [9, 2],
    [60, 2],
  ])('at %s s is line %s', (time, line) => {
    expect(activeLine(segments, time)).toBe(line);
  });
});

it('keeps the calls of one session together, in the order listed', () => {
  const call = (call_id: string, session_id: string) =>
    ({ call_id, session_id, member_id: '3', member_name: 'Rick Test' }) as ListedCallRecord;
  const groups = bySession([call('9', '5'), call('8', '5'), call('7', '4'), call('6', '5')]);
  expect(groups.map((g) => [g.sessionId, g.calls.map((c) => c.call_id)])).toEqual([
    ['5', ['9', '8']],
    ['4', ['7']],
    ['5', ['6']],
  ]);
  expect(groups[0]!.memberName).toBe('Rick Test');
});
