import { describe, expect, it } from 'vitest';
import { teamMembersQueryOptions } from '../../api/usage';
import type { UsageRecord } from '../../../server/contracts/dial-sessions';
import { totalsOf, usageRows } from './usage-rows';

const figures = (over: Partial<UsageRecord>): UsageRecord => ({
  sessions: 0,
  calls: 0,
  connected: 0,
  voicemail: 0,
  emails: 0,
  talktime: 0,
  avg_talktime: 0,
  ...over,
});

describe('usage rows', () => {
  const usage = new Map([
    ['9', figures({ sessions: 1, calls: 4, connected: 1, talktime: 3 })],
    ['3', figures({ sessions: 2, calls: 10, connected: 4, voicemail: 2, talktime: 10 })],
    ['5', figures({})],
  ]);
  const members = [
    { id: '3', name: 'Alex Turner', role: 'member' as const, removed: false },
    { id: '5', name: 'Blake Okafor', role: 'member' as const, removed: false },
  ];

  it("names each member, in the team's order, those it does not know last, and derives the rates", () => {
    const rows = usageRows(usage, members);
    expect(rows.map((r) => [r.id, r.name])).toEqual([
      ['3', 'Alex Turner'],
      ['5', 'Blake Okafor'],
      ['9', 'Someone outside your team'],
    ]);
    expect(rows[0]).toMatchObject({ connectRate: 0.4, avgTalktime: 2.5 });
    expect(rows[1]).toMatchObject({ connectRate: null, avgTalktime: null });
  });

  it("totals the counts and derives the rates from the totals, not from the members' rates", () => {
    expect(totalsOf(usageRows(usage, members))).toMatchObject({
      sessions: 3,
      calls: 14,
      connected: 5,
      voicemail: 2,
      talktime: 13,
      connectRate: 5 / 14,
      avgTalktime: 2.6,
    });
  });
});

describe("the team's names for usage", () => {
  it('names a member removed since as removed, and not as one to drill into', () => {
    const record = { username: 'u', first_name: '', last_name: '', display_name: '', role: 'member' as const, contact_count: 0 };
    const select = teamMembersQueryOptions().select!;
    const team = [
      { ...record, user_id: '3', display_name: 'Alex Turner' },
      { ...record, user_id: '4', display_name: 'Dana Moss', date_removed: '2026-11-20 10:00:00' },
    ] as unknown as Parameters<typeof select>[0];
    expect(select(team)).toEqual([
      { id: '3', name: 'Alex Turner', role: 'member', removed: false },
      { id: '4', name: 'Dana Moss (removed)', role: 'member', removed: true },
    ]);
  });
});
