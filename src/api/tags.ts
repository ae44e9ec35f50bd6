import { queryOptions } from '@tanstack/react-query';
import type { ContactTagRecord } from '../../server/contracts/contact-records';
import type { ListOf } from '../../server/contracts/common';
import { apiRequest } from '../lib/api-client';

type TagsResponse = { http_status: number; status: 'success'; tags: ListOf<'tags', ContactTagRecord> };

export const tagKeys = {
  all: ['tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
};

/** The account's tag catalog (first 100, alphabetical), for filters and suggestions. */
export const tagsQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.list(),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<TagsResponse>('/rest/1/tags', { signal, query: { page_size: 100 } });
      return [...(body.tags.tags ?? [])].sort((a, b) => a.title.localeCompare(b.title));
    },
    staleTime: 60_000,
  });
