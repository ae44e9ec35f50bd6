import type { ContactSortColumn } from '../../server/contracts/contacts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ListedCallRecord } from '../../server/contracts/calls';
import type { ContactRecord } from '../../server/contracts/contact-records';
import type { CallRecord, DialAction, DialSessionRecord } from '../../server/contracts/dial-sessions';
import { apiRequest } from '../lib/api-client';
import { contactKeys } from './query-keys';

/** The dialer's phases (server/dialer/engine.ts). */
export type DialPhase = 'idle' | 'waiting' | 'ringing' | 'connected' | 'machine' | 'playing' | 'wrapup' | 'done';

export type QueueEntry = {
  position: number;
  contact_user_id: string;
  name: string;
  status: 'pending' | 'current' | 'done' | 'skipped';
  result: string | null;
};

export type DispositionOption = {
  disposition_id: string;
  label: string;
  status: string;
  set: 'dialing' | 'live_answer';
  connected: '0' | '1';
  shortcut: string | null;
};

export type VoicemailOption = { recording_id: string; name: string; seconds: number };

/** GET /rest/1/dialsession/{id}/live: everything the dialer screen draws; the truth after any reload. */
export type LiveSnapshot = {
  session: DialSessionRecord;
  phase: DialPhase;
  call_state: string;
  position: number | null;
  contact: ContactRecord | null;
  call: (CallRecord & { connected_when: string | null }) | null;
  progress: { finished: number; skipped: number; connected: number; total: number };
  queue: QueueEntry[];
  dispositions: DispositionOption[];
  voicemails: VoicemailOption[];
  last_event_id: number;
  /** The server's clock when it answered; it may run from a configured start, so timers measure against it. */
  now: string;
};

export type DialEvent =
  | { id: number; type: 'state'; data: { position: number; call_state: string } }
  | { id: number; type: 'contact' | 'note'; data: { position: number } }
  | { id: number; type: 'call'; data: { position: number; call_id: string; phone: string; started_at: string } }
  | { id: number; type: 'skipped'; data: { position: number; reason: string | null } }
  | { id: number; type: 'result'; data: { position: number; result: string } }
  | { id: number; type: 'ended'; data: { at: string } };

export const DIAL_EVENT_TYPES = ['state', 'contact', 'call', 'skipped', 'result', 'note', 'ended'] as const;

/** The grid's filter as a session's `contact_filter` (extension): the contacts the grid shows, in the grid's order. */
export type DialContactFilter = {
  category_id?: string;
  tag_id?: string;
  search?: string;
  owner_id?: string;
  no_folder?: '1';
  sort_by?: ContactSortColumn;
  sort_order?: 'ASC' | 'DESC';
};

/** Which contacts a session dials: the rows picked in the grid, or the grid's current filter. */
export type DialTarget = { kind: 'selected'; ids: string[] } | { kind: 'filter'; filter: DialContactFilter };

export type DialSessionBody = {
  contacts?: { contact_user_id: string }[];
  contact_filter?: DialContactFilter;
  preview_mode?: 0 | 1;
};

export type Forecast = {
  total: number;
  to_dial: number;
  skipped: Record<string, number>;
  skipped_count: number;
  contact_limit: number;
};

export type CreatedDialSession = {
  redirect_url: string;
  errors: { index: number; reason: string }[] | null;
  dialsession_id: string;
  skipped_contact_count: number;
  contact_limit: number;
  total_results: number;
};

type Envelope<K extends string, T> = { http_status: number; status: 'success' } & Record<K, T>;

export function bodyFor(target: DialTarget, preview: boolean): DialSessionBody {
  const scope =
    target.kind === 'selected' ? { contacts: target.ids.map((id) => ({ contact_user_id: id })) } : { contact_filter: target.filter };
  return { ...scope, preview_mode: preview ? 1 : 0 };
}

export const dialSessionKeys = {
  all: ['dial-sessions'] as const,
  lives: () => [...dialSessionKeys.all, 'live'] as const,
  live: (id: string) => [...dialSessionKeys.lives(), id] as const,
  running: (memberId: string) => [...dialSessionKeys.all, 'running', memberId] as const,
  contactCalls: (contactId: string) => [...dialSessionKeys.all, 'contact-calls', contactId] as const,
};

type ListEnvelope<K extends string, T> = { http_status: number; status: 'success' } & Record<K, Record<K, T[]> & { total_results: number }>;

/** The member's running dial session (started, not ended), or null: at most one (the server's rule). */
export async function fetchRunningSession(memberId: string, signal?: AbortSignal): Promise<DialSessionRecord | null> {
  const body = await apiRequest<ListEnvelope<'dialsessions', DialSessionRecord>>('/rest/1/dialsession', {
    query: { status: 'active', member_id: memberId, page_size: 1 },
    signal,
  });
  return body.dialsessions.dialsessions[0] ?? null;
}

/** For the app shell's way back to a running session: read again on focus and every half minute. */
export const runningSessionQueryOptions = (memberId: string) =>
  queryOptions({
    queryKey: dialSessionKeys.running(memberId),
    queryFn: ({ signal }) => fetchRunningSession(memberId, signal),
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });

/** The newest calls made to one contact (GET /rest/1/calls?contact_id=, extension), for the contact page. */
export const contactCallsQueryOptions = (contactId: string) =>
  queryOptions({
    queryKey: dialSessionKeys.contactCalls(contactId),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<ListEnvelope<'calls', ListedCallRecord>>('/rest/1/calls', {
        query: { contact_id: contactId, page_size: 50 },
        signal,
      });
      return { calls: body.calls.calls, total: body.calls.total_results };
    },
    /* Calls are made on the dialer, not here: read again whenever the page opens. */
    staleTime: 0,
  });

/** Ends a session (the dialer's end action), e.g. the running one the rep chose to give up for a new one. */
export function useEndDialSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await apiRequest<Envelope<'live', LiveSnapshot>>(`${sessionPath(id)}/end`, { method: 'POST', body: {} })).live,
    onSuccess: (snapshot) => {
      queryClient.setQueryData(dialSessionKeys.live(snapshot.session.dialsession_id), snapshot);
      return queryClient.invalidateQueries({ queryKey: [...dialSessionKeys.all, 'running'] });
    },
  });
}

const sessionPath = (id: string) => `/rest/1/dialsession/${encodeURIComponent(id)}`;

export const liveQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dialSessionKeys.live(id),
    queryFn: async ({ signal }) => (await apiRequest<Envelope<'live', LiveSnapshot>>(`${sessionPath(id)}/live`, { signal })).live,
    /* Events say when it changes; a refetch on focus would only repeat what they said. */
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export function useDialForecast() {
  return useMutation({
    mutationFn: async (body: DialSessionBody) =>
      (await apiRequest<Envelope<'forecast', Forecast>>('/rest/1/dialsession/forecast', { method: 'POST', body })).forecast,
  });
}

/**
 * Makes a session. `key` names the rep's one intent to start it (an Idempotency-Key): without one, the same body sent
 * again within a minute answers the session made the first time, so calling the same contact twice would reopen the
 * first (ended) session instead of making a new one.
 */
export function useCreateDialSession() {
  return useMutation({
    mutationFn: async ({ body, key }: { body: DialSessionBody; key: string }) =>
      (
        await apiRequest<Envelope<'dialsessions', CreatedDialSession>>('/rest/1/dialsession', {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': key },
        })
      ).dialsessions,
  });
}

export type DialActionRequest =
  | { action: Exclude<DialAction, 'call' | 'disposition' | 'voicemail' | 'note'> }
  | { action: 'call'; phone?: string }
  | { action: 'disposition'; disposition_id: string }
  | { action: 'voicemail'; recording_id: string }
  | { action: 'note'; note: string };

/** One of the dialer's actions; its answer is the new snapshot. */
export function useDialAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, ...body }: DialActionRequest) =>
      (await apiRequest<Envelope<'live', LiveSnapshot>>(`${sessionPath(id)}/${action}`, { method: 'POST', body })).live,
    onSuccess: (snapshot, request) => {
      queryClient.setQueryData(dialSessionKeys.live(id), snapshot);
      /* Starting or ending changes which session runs (the app shell's way back to it). */
      if (request.action === 'start' || request.action === 'end')
        void queryClient.invalidateQueries({ queryKey: [...dialSessionKeys.all, 'running'] });
      /* The rep's own note makes a new version of the contact: the quick edits save against that one, not a 409. */
      if (request.action === 'note' && snapshot.contact)
        void queryClient.invalidateQueries({ queryKey: contactKeys.versioned(snapshot.contact.contact_user_id) });
    },
  });
}

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * Follows a session's events from `after` (the snapshot's last_event_id) until unmount. The stream is opened once
 * per session: EventSource resumes by itself with Last-Event-ID, so a newer snapshot does not reopen it.
 */
export function useDialEvents(
  id: string,
  after: number | undefined,
  onEvent: (event: DialEvent) => void,
  onStreamState?: (state: StreamState) => void,
) {
  const handlers = useRef({ onEvent, onStreamState });
  handlers.current = { onEvent, onStreamState };
  const ready = after !== undefined;
  /* Where the stream starts: the first snapshot's cursor for this session, kept while later snapshots move on. */
  const from = useRef({ id, after });
  if (from.current.id !== id || from.current.after === undefined) from.current = { id, after };

  useEffect(() => {
    if (!ready) return;
    const source = new EventSource(`${sessionPath(id)}/events?after=${from.current.after ?? 0}`);
    const report = (state: StreamState) => handlers.current.onStreamState?.(state);
    report('connecting');
    source.onopen = () => report('open');
    source.onerror = () => report(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    const listener = (message: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      handlers.current.onEvent({ id: Number(message.lastEventId), type: message.type, data } as DialEvent);
    };
    for (const type of DIAL_EVENT_TYPES) source.addEventListener(type, listener);
    return () => source.close();
  }, [id, ready]);
}
