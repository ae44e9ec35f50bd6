import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { AuditRecord, ContactActivityRecord } from '../../server/contracts/contact-records';
import type { ContactCustomFieldValueRecord } from '../../server/contracts/custom-fields';
import { apiRequest } from '../lib/api-client';
import { contactKeys, fetchVersioned, putVersioned } from './contacts';
import { customFieldKeys } from './custom-fields';
import { folderKeys } from './folders';
import { memberKeys } from './members';
import { tagKeys } from './tags';

/*
 * One contact's page: its record with the version it shows (ETag), its e-mails, phones, tags and custom-field values,
 * and its history. Keys sit under contactKeys.all, so whatever refreshes contacts refreshes the page too.
 */

type ListEnvelope<K extends string, T> = Record<K, Record<K, T[]> & PageMeta>;

export const contactPageKeys = {
  all: [...contactKeys.all, 'page'] as const,
  of: (id: string) => [...contactPageKeys.all, id] as const,
  record: (id: string) => [...contactPageKeys.of(id), 'record'] as const,
  customValues: (id: string) => [...contactPageKeys.of(id), 'custom-values'] as const,
  activities: (id: string, days: number) => [...contactPageKeys.of(id), 'activities', days] as const,
  audit: (id: string) => [...contactPageKeys.of(id), 'audit'] as const,
};

const contactPath = (id: string) => `/rest/1/contacts/${encodeURIComponent(id)}`;

export { isStaleVersion, type VersionedContact } from './contacts';

export const contactRecordQueryOptions = (id: string) =>
  queryOptions({
    queryKey: contactPageKeys.record(id),
    queryFn: ({ signal }) => fetchVersioned(id, signal),
    staleTime: 0,
  });

/** What a change to a contact can affect beyond its own page: lists, counts per folder, tag and member. */
async function refreshAround(queryClient: QueryClient, id: string, also: readonly (readonly unknown[])[] = []) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: contactPageKeys.of(id) }),
    queryClient.invalidateQueries({ queryKey: contactKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: contactKeys.detail(id) }),
    ...also.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ]);
}

/** PUT /rest/1/contacts/{id} with If-Match: a contact changed since it was read is a 409 (isStaleVersion). */
export function useSaveContact(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: Record<string, unknown>; etag: string | null }) => putVersioned(id, body, etag),
    onSuccess: async (saved, { body }) => {
      queryClient.setQueryData(contactPageKeys.record(id), saved);
      const also: (readonly unknown[])[] = [];
      if ('category_id' in body) also.push(folderKeys.all);
      if ('transfer_to_user_id' in body) also.push(memberKeys.all);
      await refreshAround(queryClient, id, also);
    },
  });
}

export function useRestoreContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`${contactPath(id)}/restore`, { method: 'POST' }),
    onSuccess: (_data, id) => refreshAround(queryClient, id, [folderKeys.all, tagKeys.all, memberKeys.all]),
  });
}

/* E-mail addresses and phones (the record lists both; the sub-resources change them). */

export type PointKind = 'emails' | 'phones';
export type EmailBody = { email_address: string; is_primary?: boolean };
export type PhoneBody = { phone_number: string; type?: number; label?: string; is_primary?: boolean };
export type PointChange =
  | { op: 'add'; body: EmailBody | PhoneBody }
  | { op: 'change'; pointId: number; body: EmailBody | PhoneBody }
  | { op: 'delete'; pointId: number };

export function useContactPoint(id: string, kind: PointKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: PointChange) => {
      const base = `${contactPath(id)}/${kind}`;
      if (change.op === 'add') return apiRequest<unknown>(base, { method: 'POST', body: change.body });
      const path = `${base}/${change.pointId}`;
      if (change.op === 'change') return apiRequest<unknown>(path, { method: 'PUT', body: change.body });
      return apiRequest<unknown>(path, { method: 'DELETE' });
    },
    onSuccess: () => refreshAround(queryClient, id),
  });
}

/* Tags held by the contact. */

export function useContactTag(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { op: 'add'; title: string } | { op: 'remove'; tagId: number }) =>
      change.op === 'add'
        ? apiRequest<unknown>(`${contactPath(id)}/tags`, { method: 'POST', body: { title: change.title } })
        : apiRequest<unknown>(`${contactPath(id)}/tags/${change.tagId}`, { method: 'DELETE' }),
    onSuccess: () => refreshAround(queryClient, id, [tagKeys.all]),
  });
}

/* Custom-field values: every definition of the organisation, with this contact's value or null. */

const VALUES_PAGE = 100;

export const customValuesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: contactPageKeys.customValues(id),
    queryFn: async ({ signal }) => {
      const values: ContactCustomFieldValueRecord[] = [];
      for (let page = 1; ; page++) {
        const body = await apiRequest<ListEnvelope<'customfields', ContactCustomFieldValueRecord>>(`${contactPath(id)}/customfields`, {
          signal,
          query: { page, page_size: VALUES_PAGE },
        });
        values.push(...body.customfields.customfields);
        if (page >= body.customfields.total_pages) break;
      }
      return values;
    },
  });

export function useCustomValue(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, value }: { fieldId: string; value: string | null }) => {
      const path = `${contactPath(id)}/customfields/${encodeURIComponent(fieldId)}`;
      return value === null || value === ''
        ? apiRequest<void>(path, { method: 'DELETE' })
        : apiRequest<unknown>(path, { method: 'PUT', body: { value } });
    },
    onSuccess: () => refreshAround(queryClient, id, [customFieldKeys.all]),
  });
}

/* History: activities over the last N days, and the audit log, newest first, a page at a time. */

const HISTORY_PAGE = 25;
type HistoryPage<T> = { items: T[]; page: number; totalPages: number; total: number };

async function historyPage<T>(
  path: string,
  page: number,
  signal: AbortSignal,
  extra: Record<string, number> = {},
): Promise<HistoryPage<T>> {
  const body = await apiRequest<ListEnvelope<'contact_activities', T>>(path, {
    signal,
    query: { ...extra, page, page_size: HISTORY_PAGE },
  });
  const list = body.contact_activities;
  return {
    items: list.contact_activities,
    page: Number(list.page),
    totalPages: Number(list.total_pages),
    total: Number(list.total_results),
  };
}

const nextPage = <T>(last: HistoryPage<T>) => (last.page < last.totalPages ? last.page + 1 : undefined);

export const activitiesQueryOptions = (id: string, days: number) =>
  infiniteQueryOptions({
    queryKey: contactPageKeys.activities(id, days),
    queryFn: ({ pageParam, signal }) => historyPage<ContactActivityRecord>(`${contactPath(id)}/activities`, pageParam, signal, { days }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export const auditQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: contactPageKeys.audit(id),
    queryFn: ({ pageParam, signal }) => historyPage<AuditRecord>(`${contactPath(id)}/auditlog`, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
