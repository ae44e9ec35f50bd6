import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf, PageMeta } from '../../server/contracts/common';
import type { ContactRecord, CreatedContactRecord } from '../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../server/contracts/contacts';
import type { CustomFieldRecord } from '../../server/contracts/custom-fields';
import type { MemberRecord } from '../../server/contracts/members';
import { apiFetch, apiRequest } from '../lib/api-client';
import { tagKeys } from './tags';

export type ContactListParams = {
  page: number;
  page_size: number;
  sort_by: ContactSortColumn;
  sort_order: 'ASC' | 'DESC';
  search?: string;
  category_id?: string;
  tag_id?: string;
  owner_id?: string;
};

/** The part of the list's parameters that says which contacts it holds (not how they are ordered or paged). */
export type ContactListFilter = Pick<ContactListParams, 'search' | 'category_id' | 'tag_id' | 'owner_id'>;

export function filterOf(params: ContactListParams): ContactListFilter {
  const { search, category_id, tag_id, owner_id } = params;
  return Object.fromEntries(Object.entries({ search, category_id, tag_id, owner_id }).filter(([, v]) => v !== undefined));
}

export type ContactPage = PageMeta & { contacts: ContactRecord[]; member_user_id?: string };

type ContactsResponse = { http_status: number; status: 'success'; contacts: ContactPage };
type CreatedResponse = {
  http_status: number;
  status: 'success';
  contacts: { contacts: CreatedContactRecord; additional_messages?: unknown };
};

/** Wire body of POST/PUT /rest/1/contacts (what the contract schemas accept as input). */
export type ContactWriteBody = Record<string, unknown>;

/** A contact with the version it was read at (its ETag), to update it only if nobody changed it since. */
export type VersionedContact = { record: ContactRecord; etag: string | null };

export const contactKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactKeys.all, 'list'] as const,
  list: (params: ContactListParams) => [...contactKeys.lists(), params] as const,
  details: () => [...contactKeys.all, 'detail'] as const,
  detail: (id: string) => [...contactKeys.details(), id] as const,
  versioned: (id: string) => [...contactKeys.detail(id), 'versioned'] as const,
  matches: (email: string, phone: string) => [...contactKeys.all, 'matches', { email, phone }] as const,
  owners: () => [...contactKeys.all, 'owners'] as const,
  customFields: () => [...contactKeys.all, 'custom-fields'] as const,
};

const contactPath = (id: string) => `/rest/1/contacts/${encodeURIComponent(id)}`;

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

/** The contact as it is now, with its ETag, outside the cache (a form's base must not change under it). */
export async function fetchVersioned(id: string, signal?: AbortSignal): Promise<VersionedContact> {
  const { data, response } = await apiFetch<ContactsResponse>(contactPath(id), { signal });
  const record = data.contacts.contacts[0];
  if (!record) throw new Error('The contact was not found.');
  return { record, etag: response.headers.get('ETag') };
}

export const contactQueryOptions = (id: string) =>
  queryOptions({
    queryKey: contactKeys.detail(id),
    queryFn: async ({ signal }) => (await fetchVersioned(id, signal)).record,
    staleTime: 0,
  });

/** The contact with its ETag: what an edit form starts from. */
export const versionedContactQueryOptions = (id: string) =>
  queryOptions({
    queryKey: contactKeys.versioned(id),
    queryFn: ({ signal }) => fetchVersioned(id, signal),
    staleTime: 0,
  });

/** The caller's contacts (not trashed) a new contact with this e-mail or phone would duplicate. */
export const contactMatchesQueryOptions = (email: string, phone: string) =>
  queryOptions({
    queryKey: contactKeys.matches(email, phone),
    queryFn: async ({ signal }) =>
      (await apiRequest<ContactsResponse>('/rest/1/contacts/matches', { signal, query: { email, phone } })).contacts.contacts ?? [],
    staleTime: 0,
  });

type MembersResponse = { http_status: number; status: 'success'; members: ListOf<'members', MemberRecord> };
type CustomFieldsResponse = { http_status: number; status: 'success'; customfields: ListOf<'customfields', CustomFieldRecord> };

async function allPages<T>(fetchPage: (page: number) => Promise<{ items: T[]; totalPages: number }>, maxPages = 20): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const answer = await fetchPage(page);
    items.push(...answer.items);
    if (page >= answer.totalPages) break;
  }
  return items;
}

/**
 * Who may own the contacts the caller sees: the caller and everyone beneath it. Names the grid's Owner column,
 * fills its owner filter and the bulk transfer's choices. (The grid's view of members; the members screen has its own.)
 */
export const contactOwnersQueryOptions = () =>
  queryOptions({
    queryKey: contactKeys.owners(),
    queryFn: ({ signal }) =>
      allPages(async (page) => {
        const body = await apiRequest<MembersResponse>('/rest/1/members', { signal, query: { entire_team: 1, page_size: 100, page } });
        return { items: body.members.members ?? [], totalPages: Number(body.members.total_pages) };
      }),
    staleTime: 5 * 60_000,
  });

/** The organisation's custom-field definitions, for the grid's optional columns. */
export const contactCustomFieldsQueryOptions = () =>
  queryOptions({
    queryKey: contactKeys.customFields(),
    queryFn: ({ signal }) =>
      allPages(async (page) => {
        const body = await apiRequest<CustomFieldsResponse>('/rest/1/customfields', { signal, query: { page_size: 100, page } });
        return { items: body.customfields.customfields ?? [], totalPages: Number(body.customfields.total_pages) };
      }),
    staleTime: 5 * 60_000,
  });

export function memberName(member: Pick<MemberRecord, 'display_name' | 'first_name' | 'last_name' | 'username'>): string {
  return member.display_name || [member.first_name, member.last_name].filter(Boolean).join(' ') || member.username;
}

function useInvalidateContacts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      queryClient.invalidateQueries({ queryKey: tagKeys.all }),
    ]);
}

export function useCreateContact() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: async (body: ContactWriteBody) =>
      (await apiRequest<CreatedResponse>('/rest/1/contacts', { method: 'POST', body })).contacts.contacts,
    onSuccess: () => invalidate(),
  });
}

export type UpdateContactInput = {
  id: string;
  body: ContactWriteBody;
  /** The ETag the change was made against: the update applies only if the contact is still at that version (else 409, 40902). */
  etag?: string | null | undefined;
};

/** 409 with this code: the contact changed since the form read it; nothing was saved. */
export const STALE_VERSION = 40902;

export function useUpdateContact() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: async ({ id, body, etag }: UpdateContactInput) => {
      const { data, response } = await apiFetch<ContactsResponse>(contactPath(id), {
        method: 'PUT',
        body,
        headers: etag ? { 'If-Match': etag } : undefined,
      });
      const record = data.contacts.contacts[0] ?? null;
      if (record) queryClient.setQueryData(contactKeys.versioned(id), { record, etag: response.headers.get('ETag') });
      return record;
    },
    onSuccess: async (record, { id }) => {
      if (record) queryClient.setQueryData(contactKeys.detail(id), record);
      await invalidate();
    },
  });
}

export type DeleteMode = 'trash' | 'permanent';

/** The API takes at most this many ids in one DELETE. */
const DELETE_CHUNK = 500;

/**
 * Deletes contacts for good (trashing goes through a bulk job). Sent in chunks, each reported as it is done, so
 * a large selection shows progress and no request is held open for long.
 */
export function useDeleteContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, mode, onProgress }: { ids: string[]; mode: DeleteMode; onProgress?: (done: number) => void }) => {
      const permanent = mode === 'permanent' ? 1 : 0;
      if (ids.length === 1) {
        await apiRequest<void>(contactPath(ids[0]!), { method: 'DELETE', query: permanent ? { permanent } : undefined });
        onProgress?.(1);
        return;
      }
      for (let start = 0; start < ids.length; start += DELETE_CHUNK) {
        const chunk = ids.slice(start, start + DELETE_CHUNK);
        await apiRequest<void>('/rest/1/contacts', { method: 'DELETE', query: { permanent }, body: { contact_user_ids: chunk.map(Number) } });
        onProgress?.(start + chunk.length);
      }
    },
    onSuccess: async (_data, { ids }) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: contactKeys.lists() });
    },
  });
}

/** Takes contacts back out of the trash (Undo), a few at a time, reporting how many are back. */
export function useRestoreContacts() {
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: async ({ ids, onProgress }: { ids: string[]; onProgress?: (done: number) => void }) => {
      let done = 0;
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          await apiRequest(`${contactPath(id)}/restore`, { method: 'POST' });
          onProgress?.(++done);
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
    },
    onSuccess: () => invalidate(),
  });
}
