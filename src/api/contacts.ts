import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { ContactRecord, CreatedContactRecord } from '../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../server/contracts/contacts';
import { apiRequest } from '../lib/api-client';
import { tagKeys } from './tags';

export type ContactListParams = {
  page: number;
  page_size: number;
  sort_by: ContactSortColumn;
  sort_order: 'ASC' | 'DESC';
  search?: string;
  category_id?: string;
  tag_id?: string;
};

export type ContactPage = PageMeta & { contacts: ContactRecord[]; member_user_id?: string };

type ContactsResponse = { http_status: number; status: 'success'; contacts: ContactPage };
type CreatedResponse = {
  http_status: number;
  status: 'success';
  contacts: { contacts: CreatedContactRecord; additional_messages?: unknown };
};

/** Wire body of POST/PUT /rest/1/contacts (what the contract schemas accept as input). */
export type ContactWriteBody = Record<string, unknown>;

export const contactKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactKeys.all, 'list'] as const,
  list: (params: ContactListParams) => [...contactKeys.lists(), params] as const,
  details: () => [...contactKeys.all, 'detail'] as const,
  detail: (id: string) => [...contactKeys.details(), id] as const,
};

export const contactListQueryOptions = (params: ContactListParams) =>
  queryOptions({
    queryKey: contactKeys.list(params),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<ContactsResponse>('/rest/1/contacts', { signal, query: { ...params } });
      const page = body.contacts;
      return {
        ...page,
        contacts: page.contacts ?? [],
        page: Number(page.page),
        page_size: Number(page.page_size),
        total_results: Number(page.total_results),
        total_pages: Number(page.total_pages),
      } satisfies ContactPage;
    },
    placeholderData: keepPreviousData,
  });

export const contactQueryOptions = (id: string) =>
  queryOptions({
    queryKey: contactKeys.detail(id),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<ContactsResponse>(`/rest/1/contacts/${encodeURIComponent(id)}`, { signal });
      const record = body.contacts.contacts[0];
      if (!record) throw new Error('The contact was not found.');
      return record;
    },
    staleTime: 0,
  });

export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ContactWriteBody) =>
      (await apiRequest<CreatedResponse>('/rest/1/contacts', { method: 'POST', body })).contacts.contacts,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
        queryClient.invalidateQueries({ queryKey: tagKeys.all }),
      ]);
    },
  });
}

export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: ContactWriteBody }) => {
      const response = await apiRequest<ContactsResponse>(`/rest/1/contacts/${encodeURIComponent(id)}`, { method: 'PUT', body });
      return response.contacts.contacts[0] ?? null;
    },
    onSuccess: async (record, { id }) => {
      if (record) queryClient.setQueryData(contactKeys.detail(id), record);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
        queryClient.invalidateQueries({ queryKey: tagKeys.all }),
      ]);
    },
  });
}

export type DeleteMode = 'trash' | 'permanent';

export function useDeleteContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, mode }: { ids: string[]; mode: DeleteMode }) => {
      const permanent = mode === 'permanent' ? 1 : 0;
      if (ids.length === 1) {
        await apiRequest<void>(`/rest/1/contacts/${encodeURIComponent(ids[0]!)}`, {
          method: 'DELETE',
          query: mode === 'permanent' ? { permanent } : undefined,
        });
      } else {
        await apiRequest<void>('/rest/1/contacts', {
          method: 'DELETE',
          query: { permanent },
          body: { contact_user_ids: ids.map(Number) },
        });
      }
    },
    onSuccess: async (_data, { ids }) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: contactKeys.lists() });
    },
  });
}
