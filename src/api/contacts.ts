import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { ContactRecord, CreatedContactRecord } from '../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../server/contracts/contacts';
import { ApiError, apiFetch, apiRequest } from '../lib/api-client';
import { contactKeys, folderKeys, memberKeys, tagKeys } from './query-keys';

export type ContactListParams = {
  page: number;
  page_size: number;
  sort_by: ContactSortColumn;
  sort_order: 'ASC' | 'DESC';
  search?: string;
  category_id?: string;
  tag_id?: string;
  owner_id?: string;
  /** Extension: only the contacts in no folder ("Not in a folder"). */
  no_folder?: '1';
};

/** The part of the list's parameters that says which contacts it holds (not how they are ordered or paged). */
export type ContactListFilter = Pick<ContactListParams, 'search' | 'category_id' | 'tag_id' | 'owner_id' | 'no_folder'>;

export function filterOf(params: ContactListParams): ContactListFilter {
  const { search, category_id, tag_id, owner_id, no_folder } = params;
  return Object.fromEntries(Object.entries({ search, category_id, tag_id, owner_id, no_folder }).filter(([, v]) => v !== undefined));
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

export { contactKeys };

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

function versionedOf(data: ContactsResponse, response: Response): VersionedContact {
  const record = data.contacts.contacts[0];
  if (!record) throw new ApiError(404, [{ code: 40401, reason: 'There is no such contact, or it is not yours to see.' }]);
  return { record, etag: response.headers.get('ETag') };
}

/** The contact as it is now, with its ETag, outside the cache (a form's base must not change under it). */
export async function fetchVersioned(id: string, signal?: AbortSignal): Promise<VersionedContact> {
  const { data, response } = await apiFetch<ContactsResponse>(contactPath(id), { signal });
  return versionedOf(data, response);
}

/**
 * PUT /rest/1/contacts/{id}, with If-Match when an ETag is given: the change applies only if the contact is still at
 * that version, else a 409 (isStaleVersion) and nothing is saved. Answers the record as saved, with its new ETag.
 */
export async function putVersioned(id: string, body: ContactWriteBody, etag?: string | null): Promise<VersionedContact> {
  const { data, response } = await apiFetch<ContactsResponse>(contactPath(id), {
    method: 'PUT',
    body,
    headers: etag ? { 'If-Match': etag } : undefined,
  });
  return versionedOf(data, response);
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

/**
 * Reads again what a change to contacts can alter: the contacts themselves, and the counts of contacts that folders,
 * tags and members show. (The keys live in query-keys.ts, so this module needs none of the others.)
 */
export function refreshContactsAndCounts(queryClient: QueryClient) {
  return Promise.all(
    [contactKeys.all, folderKeys.all, tagKeys.all, memberKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

function useInvalidateContacts() {
  const queryClient = useQueryClient();
  return () => refreshContactsAndCounts(queryClient);
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
  /** An e-mail address to add beside the contact's own once the update is saved (the update itself replaces the primary). */
  addEmail?: string;
};

/** 409 with this code: the contact changed since the form read it; nothing was saved. */
export const STALE_VERSION = 40902;

export const isStaleVersion = (error: unknown) => error instanceof ApiError && error.status === 409 && error.hasCode(STALE_VERSION);

export function useUpdateContact() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: async ({ id, body, etag, addEmail }: UpdateContactInput) => {
      const saved = await putVersioned(id, body, etag);
      if (addEmail) {
        await apiRequest<unknown>(`${contactPath(id)}/emails`, { method: 'POST', body: { email_address: addEmail } });
        const now = await fetchVersioned(id);
        queryClient.setQueryData(contactKeys.versioned(id), now);
        return now.record;
      }
      queryClient.setQueryData(contactKeys.versioned(id), saved);
      return saved.record;
    },
    onSuccess: async (record, { id }) => {
      queryClient.setQueryData(contactKeys.detail(id), record);
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
        await apiRequest<void>('/rest/1/contacts', {
          method: 'DELETE',
          query: { permanent },
          body: { contact_user_ids: chunk.map(Number) },
        });
        onProgress?.(start + chunk.length);
      }
    },
    onSuccess: async (_data, { ids }) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      await refreshContactsAndCounts(queryClient);
    },
  });
}
