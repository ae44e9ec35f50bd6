import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PageMeta } from '../../server/contracts/common';
import type { ContactRecord } from '../../server/contracts/contact-records';
import { apiRequest } from '../lib/api-client';
import { contactKeys, refreshContactsAndCounts } from './contacts';

type ContactsResponse = { contacts: PageMeta & { contacts: ContactRecord[] } };

export type TrashParams = { page: number; page_size: number };

/** Under the contact lists' key: whatever refreshes lists (a contact trashed in the grid) refreshes the trash. */
export const trashKeys = {
  all: [...contactKeys.lists(), 'trash'] as const,
  page: (params: TrashParams) => [...trashKeys.all, params] as const,
};

export const trashQueryOptions = (params: TrashParams) =>
  queryOptions({
    queryKey: trashKeys.page(params),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<ContactsResponse>('/rest/1/contacts', {
        signal,
        query: { only_trashed: 1, sort_by: 'date_modified', sort_order: 'DESC', ...params },
      });
      const page = body.contacts;
      return {
        contacts: page.contacts ?? [],
        page: Number(page.page),
        totalPages: Number(page.total_pages),
        total: Number(page.total_results),
      };
    },
    placeholderData: keepPreviousData,
  });

/** What a contact leaving or entering the trash changes: lists, and the counts by folder, tag and owner. */

/** Restore requests in flight at once. */
const RESTORING_AT_ONCE = 4;

/**
 * Takes contacts out of the trash (the trash screen, and Undo after moving them there): one request each, as the
 * API restores one at a time, a few at once, reporting how many are back. After a failure no more are sent; the
 * error is thrown once those under way have answered, and the progress says how many came back before it.
 */
export function useRestoreContacts(onProgress: (done: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      let done = 0;
      let failed = false;
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined && !failed; id = queue.shift()) {
          try {
            await apiRequest<unknown>(`/rest/1/contacts/${encodeURIComponent(id)}/restore`, { method: 'POST' });
          } catch (error) {
            failed = true;
            throw error;
          }
          onProgress(++done);
        }
      };
      try {
        const results = await Promise.allSettled(Array.from({ length: Math.min(RESTORING_AT_ONCE, ids.length) }, worker));
        const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (rejected) throw rejected.reason;
      } finally {
        if (done > 0) await refreshContactsAndCounts(queryClient);
      }
      return done;
    },
  });
}

/** Deletes contacts for good, in requests of up to 1,000 (the API's limit). */
export function useDeleteForever(onProgress: (done: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      let done = 0;
      try {
        for (let i = 0; i < ids.length; i += 1000) {
          const chunk = ids.slice(i, i + 1000);
          await apiRequest<void>('/rest/1/contacts', {
            method: 'DELETE',
            query: { permanent: 1 },
            body: { contact_user_ids: chunk.map(Number) },
          });
          done += chunk.length;
          onProgress(done);
        }
      } finally {
        if (done > 0) await refreshContactsAndCounts(queryClient);
      }
      return done;
    },
  });
}
