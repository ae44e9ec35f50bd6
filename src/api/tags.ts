import { queryOptions } from '@tanstack/react-query';
import type { ContactTagRecord } from '../../server/contracts/contact-records';
import type { ListOf } from '../../server/contracts/common';
import { apiRequest } from '../lib/api-client';

type TagsResponse = { http_status: number; status: 'success'; tags: ListOf<'tags', ContactTagRecord> };

export const tagKeys = {
  all: ['tags'] as const,
  list: () => [...tagKeys.all, 'list'] as const,
};

const PAGE_SIZE = 100;
/** Past this many tags a select is no way to pick one; the filter then offers the first ones alphabetically. */
const MAX_PAGES = 20;

/** The account's tag catalog (all of it, up to 2,000 tags, alphabetical), for filters and suggestions. */
export const tagsQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.list(),
    queryFn: async ({ signal }) => {
      const tags: ContactTagRecord[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const body = await apiRequest<TagsResponse>('/rest/1/tags', { signal, query: { page_size: PAGE_SIZE, page } });
        tags.push(...(body.tags.tags ?? []));
        if (page >= body.tags.total_pages) break;
      }
      return tags.sort((a, b) => a.title.localeCompare(b.title));
    },
    staleTime: 60_000,
  });
