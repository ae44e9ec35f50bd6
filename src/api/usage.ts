/*
 * What the usage screen reads: the server's today, the team's usage figures and members, and the team's dial
 * sessions with their calls. All reads; the figures change only as calls are made, so they are kept a minute.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { CallRecord, DialSessionRecord, UsageRecord } from '../../server/contracts/dial-sessions';
import type { MemberRecord } from '../../server/contracts/members';
import type { ClockRecord } from '../../server/contracts/system';
import { apiRequest } from '../lib/api-client';
import { memberName, teamQueryOptions, type TeamMember } from './members';

type Envelope<K extends string, T> = { http_status: number; status: 'success' } & Record<K, T>;

/** A range of whole days, YYYY-MM-DD, both included (UTC, as the API counts them). */
export type DayRange = { start: string; end: string };

export type UsageMember = { id: string; name: string; role: MemberRecord['role'] };
export type SessionPage = PageMeta & { sessions: DialSessionRecord[] };
export type CallPage = PageMeta & { calls: CallRecord[] };

export const SESSION_PAGE_SIZE = 10;
export const CALL_PAGE_SIZE = 25;

export const usageKeys = {
  all: ['usage'] as const,
  clock: () => [...usageKeys.all, 'clock'] as const,
  figures: (range: DayRange) => [...usageKeys.all, 'figures', range] as const,
  sessions: (range: DayRange, page: number) => [...usageKeys.all, 'sessions', range, page] as const,
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

/** The caller and everyone beneath it (entire_team=1), whose figures usage answers: the team query, by id and name. */
export const teamMembersQueryOptions = () =>
  queryOptions({
    ...teamQueryOptions(),
    select: (team: TeamMember[]): UsageMember[] => team.map((m) => ({ id: m.user_id, name: memberName(m), role: m.role })),
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

/** The team's sessions made in the range, newest first, a page at a time (without their calls). */
export const sessionsQueryOptions = (range: DayRange, page: number) =>
  queryOptions({
    queryKey: usageKeys.sessions(range, page),
    queryFn: async ({ signal }): Promise<SessionPage> => {
      const body = await apiRequest<Envelope<'dialsessions', PageMeta & { dialsessions: DialSessionRecord[] }>>('/rest/1/dialsession', {
        signal,
        query: { date_start: range.start, date_end: range.end, page, page_size: SESSION_PAGE_SIZE },
      });
      return { ...numbersOf(body.dialsessions), sessions: body.dialsessions.dialsessions ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** A page of one session's calls (GET /rest/1/dialsession/{id}; the paging fields page through the calls). */
export const sessionCallsQueryOptions = (sessionId: string, page: number) =>
  queryOptions({
    queryKey: usageKeys.calls(sessionId, page),
    queryFn: async ({ signal }): Promise<CallPage> => {
      const body = await apiRequest<Envelope<'dialsessions', PageMeta & { dialsessions: DialSessionRecord }>>(
        `/rest/1/dialsession/${encodeURIComponent(sessionId)}`,
        { signal, query: { page, page_size: CALL_PAGE_SIZE } },
      );
      return { ...numbersOf(body.dialsessions), calls: body.dialsessions.dialsessions.calls ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
