/*
 * What the Calls screen and the call viewer read: a page of calls (GET /rest/1/calls, filtered), one call with its
 * recording and transcript summary, the full transcript, the member's sessions still running, and the disposition
 * labels to filter by. All reads; a call's transcript is polled while it is being made.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { ListedCallRecord } from '../../server/contracts/calls';
import type { DialSessionRecord, TranscriptRecord } from '../../server/contracts/dial-sessions';
import { apiRequest } from '../lib/api-client';

type Envelope<K extends string, T> = { http_status: number; status: 'success' } & Record<K, T>;

/** The filters of the Calls screen, as the URL and GET /rest/1/calls name them ('' for none). */
export type CallFilters = {
  date_start: string;
  date_end: string;
  member_id: string;
  session_id: string;
  disposition: string;
  connected: '' | '0' | '1';
  recorded: '' | '0' | '1';
  search: string;
};

export type CallsPage = PageMeta & { calls: ListedCallRecord[] };

export const CALLS_PAGE_SIZE = 25;

/** A transcript still being made is asked for again this often. */
export const TRANSCRIPT_POLL_MS = 2000;

export const callKeys = {
  all: ['calls'] as const,
  lists: () => [...callKeys.all, 'list'] as const,
  list: (filters: CallFilters, page: number) => [...callKeys.lists(), filters, page] as const,
  detail: (id: string) => [...callKeys.all, 'detail', id] as const,
  transcript: (id: string) => [...callKeys.all, 'transcript', id] as const,
  running: (memberId: string) => [...callKeys.all, 'running', memberId] as const,
  dispositions: () => [...callKeys.all, 'dispositions'] as const,
};

const numbersOf = (meta: PageMeta): PageMeta => ({
  page: Number(meta.page),
  page_size: Number(meta.page_size),
  total_results: Number(meta.total_results),
  total_pages: Number(meta.total_pages),
});

/** A page of the calls the caller may see, newest first, narrowed by the filters. */
export const callsQueryOptions = (filters: CallFilters, page: number) =>
  queryOptions({
    queryKey: callKeys.list(filters, page),
    queryFn: async ({ signal }): Promise<CallsPage> => {
      const body = await apiRequest<Envelope<'calls', PageMeta & { calls: ListedCallRecord[] }>>('/rest/1/calls', {
        signal,
        query: { ...filters, page, page_size: CALLS_PAGE_SIZE },
      });
      return { ...numbersOf(body.calls), calls: body.calls.calls };
    },
    placeholderData: keepPreviousData,
    // Calls are made elsewhere (the dialer): coming back to the list reads it again.
    staleTime: 0,
  });

/*
 * A call the carrier records says 'pending' from its answer until its recording is stored (the server knows it will
 * come), and 'none' only when there will be none: the call is read again while anything of it is still to come.
 */
const inProgress = (call: ListedCallRecord | undefined) =>
  !!call &&
  (!call.end_when ||
    call.recording_status === 'pending' ||
    call.transcript_status === 'queued' ||
    call.transcript_status === 'processing' ||
    call.transcript_status === 'completed');

/** One call with its recording_url and transcript summary; asked for again until its recording and transcript are settled. */
export const callQueryOptions = (id: string) =>
  queryOptions({
    queryKey: callKeys.detail(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<Envelope<'call', PageMeta & { call: ListedCallRecord }>>(`/rest/1/calls/${encodeURIComponent(id)}`, {
          signal,
          query: { include_recording: 1, include_transcript: 1 },
        })
      ).call.call,
    refetchInterval: (query) => (inProgress(query.state.data) ? TRANSCRIPT_POLL_MS : false),
  });

/** The full segmented transcript (GET /rest/1/transcripts/{id}). A transcript does not change once completed. */
export const transcriptQueryOptions = (id: string) =>
  queryOptions({
    queryKey: callKeys.transcript(id),
    queryFn: async ({ signal }) =>
      (await apiRequest<Envelope<'transcript', TranscriptRecord>>(`/rest/1/transcripts/${encodeURIComponent(id)}`, { signal })).transcript,
    staleTime: 60_000,
  });

/** The member's own sessions made and not ended (active, then ready), so the screen can lead back into them. */
export const runningSessionsQueryOptions = (memberId: string) =>
  queryOptions({
    queryKey: callKeys.running(memberId),
    queryFn: async ({ signal }): Promise<DialSessionRecord[]> => {
      const read = async (status: 'active' | 'ready') =>
        (
          await apiRequest<Envelope<'dialsessions', PageMeta & { dialsessions: DialSessionRecord[] }>>('/rest/1/dialsession', {
            signal,
            query: { status, member_id: memberId, page_size: 10 },
          })
        ).dialsessions.dialsessions ?? [];
      const [active, ready] = await Promise.all([read('active'), read('ready')]);
      return [...active, ...ready];
    },
    staleTime: 0,
  });

type DispositionSet = { statuses: { status: string }[] };

/** Every disposition label the organisation's enabled sets offer, once each, in their order. */
export const dispositionLabelsQueryOptions = () =>
  queryOptions({
    queryKey: callKeys.dispositions(),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<Envelope<'dispositions', { dispositions: DispositionSet[] }>>('/rest/1/dispositions', { signal });
      return [...new Set(body.dispositions.dispositions.flatMap((set) => set.statuses.map((s) => s.status)))];
    },
    staleTime: 5 * 60_000,
  });
