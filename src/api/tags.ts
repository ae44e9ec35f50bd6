import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactTagRecord } from '../../server/contracts/contact-records';
import type { ListOf } from '../../server/contracts/common';
import type { TagRecord, WrittenTagRecord } from '../../server/contracts/tags';
import { apiRequest } from '../lib/api-client';
import { contactKeys, tagKeys } from './query-keys';

type TagsResponse<T> = { http_status: number; status: 'success'; tags: ListOf<'tags', T> };
type WrittenResponse = { tag: WrittenTagRecord };

export { tagKeys };

const PAGE_SIZE = 100;
/** Past this many tags a select is no way to pick one; the filter then offers the first ones alphabetically. */
const MAX_PAGES = 20;

async function allTags<T extends ContactTagRecord>(signal: AbortSignal, withCounts: boolean): Promise<T[]> {
  const tags: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await apiRequest<TagsResponse<T>>('/rest/1/tags', {
      signal,
      query: { page_size: PAGE_SIZE, page, with_counts: withCounts || undefined },
    });
    tags.push(...(body.tags.tags ?? []));
    if (page >= body.tags.total_pages) break;
  }
  return tags.sort((a, b) => a.title.localeCompare(b.title));
}

/** The account's tag catalog (all of it, up to 2,000 tags, alphabetical), for filters and suggestions. */
export const tagsQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.list(),
    queryFn: ({ signal }) => allTags<ContactTagRecord>(signal, false),
    staleTime: 60_000,
  });

export type CountedTag = TagRecord & { contact_count: number };

/** The catalog with the number of contacts holding each tag (the admin screen). */
export const countedTagsQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.counted(),
    queryFn: async ({ signal }) =>
      (await allTags<CountedTag>(signal, true)).map((t) => ({ ...t, contact_count: Number(t.contact_count ?? 0) })),
  });

/** Creating, renaming or deleting a tag changes what contacts show: their records are read again. */
function useTagMutation<V>(request: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: tagKeys.all }), queryClient.invalidateQueries({ queryKey: contactKeys.all })]),
  });
}

export const useCreateTag = () =>
  useTagMutation(async (title: string) => (await apiRequest<WrittenResponse>('/rest/1/tags', { method: 'POST', body: { title } })).tag);

export const useRenameTag = () =>
  useTagMutation(
    async ({ id, title }: { id: number; title: string }) =>
      (await apiRequest<WrittenResponse>(`/rest/1/tags/${id}`, { method: 'PUT', body: { title } })).tag,
  );

export const useDeleteTag = () => useTagMutation((id: number) => apiRequest<void>(`/rest/1/tags/${id}`, { method: 'DELETE' }));
