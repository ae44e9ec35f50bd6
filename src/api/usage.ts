/*
 * What the usage screen reads: the server's today, the team's usage figures (per member, per day, per disposition)
 * and members, and the dial sessions with their calls. All reads; the figures change only as calls are made, so
 * they are kept a minute.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type {
  CallRecord,
  DialSessionRecord,
  UsageDayRecord,
  UsageDispositionRecord,
  UsageRecord,
} from '../../server/contracts/dial-sessions';
import type { MemberRecord } from '../../server/contracts/members';
import type { ClockRecord } from '../../server/contracts/system';
import { apiRequest } from '../lib/api-client';
import { memberName, teamQueryOptions, type TeamMember } from './members';

type Envelope<K extends string, T> = { http_status: number; status: 'success' } & Record<K, T>;

/** A range of whole days, YYYY-MM-DD, both included (UTC, as the API counts them). */
export type DayRange = { start: string; end: string };

/** Who a figure or call is by when the team's list does not name it (it is not readable to the caller). */
export const UNKNOWN_MEMBER = 'Someone outside your team';

export type UsageMember = { id: string; name: string; role: MemberRecord['role']; removed: boolean };
export type SessionPage = PageMeta & { sessions: DialSessionRecord[] };
export type CallPage = PageMeta & { session: DialSessionRecord; calls: CallRecord[] };

export const SESSION_PAGE_SIZE = 10;
export const CALL_PAGE_SIZE = 25;

export const usageKeys = {
  all: ['usage'] as const,
  clock: () => [...usageKeys.all, 'clock'] as const,
  figures: (range: DayRange) => [...usageKeys.all, 'figures', range] as const,
  days: (range: DayRange, memberId: string | null) => [...usageKeys.all, 'days', range, memberId] as const,
  dispositions: (range: DayRange, memberId: string | null) => [...usageKeys.all, 'dispositions', range, memberId] as const,
  sessions: (range: DayRange, memberId: string | null, page: number) => [...usageKeys.all, 'sessions', range, memberId, page] as const,
  calls: (sessionId: string, page: number) => [...usageKeys.all, 'calls', sessionId, page] as const,
};

const numbersOf = (meta: PageMeta): PageMeta => ({
  page: Number(meta.page),
  page_size: Number(meta.page_size),
  total_results: Number(meta.total_results),
  total_pages: Number(meta.total_pages),
});

/** GET /rest/1/clock (extension): the server's today, which may differ from the browser's. */
export const clockQueryOptions = () =>
  queryOptions({
    queryKey: usageKeys.clock(),
    queryFn: async ({ signal }) => (await apiRequest<Envelope<'clock', ClockRecord>>('/rest/1/clock', { signal })).clock,
    staleTime: 5 * 60_000,
  });

/**
 * The caller and everyone beneath it (entire_team=1), whose figures usage answers, by id and name; a member removed
 * since keeps its figures and calls, named "Jane Doe (removed)".
 */
export const teamMembersQueryOptions = () =>
  queryOptions({
    ...teamQueryOptions(true),
    select: (team: TeamMember[]): UsageMember[] =>
      team.map((m) => ({
        id: m.user_id,
        name: m.date_removed ? `${memberName(m)} (removed)` : memberName(m),
        role: m.role,
        removed: Boolean(m.date_removed),
      })),
  });

/** GET /rest/1/dialsession/usage: each member's figures keyed by member id, beside the paging fields. */
export const usageQueryOptions = (range: DayRange) =>
  queryOptions({
    queryKey: usageKeys.figures(range),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<Envelope<'usage', Record<string, unknown>>>('/rest/1/dialsession/usage', {
        signal,
        query: { date_start: range.start, date_end: range.end },
      });
      const figures = new Map<string, UsageRecord>();
      for (const [key, value] of Object.entries(body.usage)) if (/^\d+$/.test(key)) figures.set(key, value as UsageRecord);
      return figures;
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** The days and, when one member is chosen, its id: the query every breakdown takes. */
const breakdownQuery = (range: DayRange, memberId: string | null) => ({
  date_start: range.start,
  date_end: range.end,
  ...(memberId ? { member_id: memberId } : {}),
});

/** GET /rest/1/dialsession/usage/days (extension): every day of the range, oldest first, zeros included. */
export const usageDaysQueryOptions = (range: DayRange, memberId: string | null) =>
  queryOptions({
    queryKey: usageKeys.days(range, memberId),
    queryFn: async ({ signal }): Promise<UsageDayRecord[]> =>
      (
        await apiRequest<Envelope<'usage_days', PageMeta & { days: UsageDayRecord[] }>>('/rest/1/dialsession/usage/days', {
          signal,
          query: breakdownQuery(range, memberId),
        })
      ).usage_days.days,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** GET /rest/1/dialsession/usage/dispositions (extension): calls per disposition label, most first; '' is none yet. */
export const usageDispositionsQueryOptions = (range: DayRange, memberId: string | null) =>
  queryOptions({
    queryKey: usageKeys.dispositions(range, memberId),
    queryFn: async ({ signal }): Promise<UsageDispositionRecord[]> =>
      (
        await apiRequest<Envelope<'usage_dispositions', PageMeta & { dispositions: UsageDispositionRecord[] }>>(
          '/rest/1/dialsession/usage/dispositions',
          {
            signal,
            query: breakdownQuery(range, memberId),
          },
        )
      ).usage_dispositions.dispositions,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** The sessions made in the range (the team's, or one member's: member_id), newest first, a page at a time (without their calls). */
export const sessionsQueryOptions = (range: DayRange, memberId: string | null, page: number) =>
  queryOptions({
    queryKey: usageKeys.sessions(range, memberId, page),
    queryFn: async ({ signal }): Promise<SessionPage> => {
      const body = await apiRequest<Envelope<'dialsessions', PageMeta & { dialsessions: DialSessionRecord[] }>>('/rest/1/dialsession', {
        signal,
        query: { ...breakdownQuery(range, memberId), page, page_size: SESSION_PAGE_SIZE },
      });
      return { ...numbersOf(body.dialsessions), sessions: body.dialsessions.dialsessions ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** One session and a page of its calls (GET /rest/1/dialsession/{id}; the paging fields page through the calls). */
export const sessionCallsQueryOptions = (sessionId: string, page: number) =>
  queryOptions({
    queryKey: usageKeys.calls(sessionId, page),
    queryFn: async ({ signal }): Promise<CallPage> => {
      const body = await apiRequest<Envelope<'dialsessions', PageMeta & { dialsessions: DialSessionRecord }>>(
        `/rest/1/dialsession/${encodeURIComponent(sessionId)}`,
        { signal, query: { page, page_size: CALL_PAGE_SIZE } },
      );
      const { calls, ...session } = body.dialsessions.dialsessions;
      return { ...numbersOf(body.dialsessions), session, calls: calls ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
