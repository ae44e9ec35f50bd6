import { describe, expect, it } from 'vitest';
import { drillDownOf, drillDownSearch } from './drill-down';

describe('the drill-down in the URL', () => {
  it.each([
    ['', { memberId: null, sessionId: null }],
    ['?member=12', { memberId: '12', sessionId: null }],
    ['?member=12&session=340', { memberId: '12', sessionId: '340' }],
    ['?session=340', { memberId: null, sessionId: null }],
    ['?member=abc&session=340', { memberId: null, sessionId: null }],
    ['?member=0', { memberId: null, sessionId: null }],
    ['?member=12&session=-1', { memberId: '12', sessionId: null }],
  ])('reads %s', (search, expected) => {
    expect(drillDownOf(new URLSearchParams(search))).toEqual(expected);
  });

  it('links to each level keeping the days', () => {
    const params = new URLSearchParams('start=2026-11-17&end=2026-11-23&member=12&session=340');
    expect(drillDownSearch(params, { memberId: null, sessionId: null })).toBe('?start=2026-11-17&end=2026-11-23');
    expect(drillDownSearch(params, { memberId: '12', sessionId: null })).toBe('?start=2026-11-17&end=2026-11-23&member=12');
    expect(drillDownSearch(params, { memberId: '7', sessionId: '9' })).toBe('?start=2026-11-17&end=2026-11-23&member=7&session=9');
    expect(drillDownSearch(new URLSearchParams('member=12'), { memberId: null, sessionId: null })).toBe('');
  });
});
