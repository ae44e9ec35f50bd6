import { useCallback, useMemo } from 'react';
import { useSearchParamsQueued } from '../../lib/use-search-params-queued';
import { CONTACT_SORT_COLUMNS, type ContactSortColumn } from '../../../server/contracts/contacts';
import type { ContactListParams } from '../../api/contacts';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_SORT: ContactSortColumn = 'date_added';

/** Text columns sort A→Z first; dates and ratings newest/highest first. */
export const defaultOrderFor = (column: ContactSortColumn): 'ASC' | 'DESC' =>
  column === 'date_added' || column === 'date_modified' || column === 'rating' ? 'DESC' : 'ASC';

const positiveInt = (value: string | null): number | null => {
  if (!value || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 ? n : null;
};

const idParam = (value: string | null): string | undefined => (value && /^[1-9]\d*$/.test(value) ? value : undefined);

/** The sort choices the grid offers, each a column and a direction. */
export const SORT_CHOICES: { sortBy: ContactSortColumn; order: 'ASC' | 'DESC'; label: string; managersOnly?: boolean }[] = [
  { sortBy: 'date_added', order: 'DESC', label: 'Newest first' },
  { sortBy: 'date_added', order: 'ASC', label: 'Oldest first' },
  { sortBy: 'date_modified', order: 'DESC', label: 'Recently modified' },
  { sortBy: 'first_name', order: 'ASC', label: 'First name (A–Z)' },
  { sortBy: 'first_name', order: 'DESC', label: 'First name (Z–A)' },
  { sortBy: 'last_name', order: 'ASC', label: 'Last name (A–Z)' },
  { sortBy: 'last_name', order: 'DESC', label: 'Last name (Z–A)' },
  { sortBy: 'email', order: 'ASC', label: 'E-mail (A–Z)' },
  { sortBy: 'rating', order: 'DESC', label: 'Rating (highest first)' },
  { sortBy: 'owner', order: 'ASC', label: 'Owner (A–Z)', managersOnly: true },
  { sortBy: 'owner', order: 'DESC', label: 'Owner (Z–A)', managersOnly: true },
];

/**
 * The contact list's state lives in the URL (?page=&page_size=&sort_by=&sort_order=&search=&folder=&tag=&owner=)
 * so reload, back/forward and shared links all work. Invalid values fall back to defaults.
 */
export function useContactListParams() {
  const [searchParams, setSearchParams] = useSearchParamsQueued();

  const params = useMemo<ContactListParams>(() => {
    const pageSize = positiveInt(searchParams.get('page_size'));
    const sortBy = searchParams.get('sort_by');
    const sortColumn = (CONTACT_SORT_COLUMNS as readonly string[]).includes(sortBy ?? '') ? (sortBy as ContactSortColumn) : DEFAULT_SORT;
    const order = searchParams.get('sort_order')?.toUpperCase();
    const search = searchParams.get('search')?.trim().slice(0, 100);
    const result: ContactListParams = {
      page: positiveInt(searchParams.get('page')) ?? 1,
      page_size: (PAGE_SIZES as readonly number[]).includes(pageSize ?? 0) ? pageSize! : DEFAULT_PAGE_SIZE,
      sort_by: sortColumn,
      sort_order: order === 'ASC' || order === 'DESC' ? order : defaultOrderFor(sortColumn),
    };
    if (search) result.search = search;
    const folder = idParam(searchParams.get('folder'));
    if (folder) result.category_id = folder;
    else if (searchParams.get('folder') === 'none') result.no_folder = '1';
    const tag = idParam(searchParams.get('tag'));
    if (tag) result.tag_id = tag;
    const owner = idParam(searchParams.get('owner'));
    if (owner) result.owner_id = owner;
    return result;
  }, [searchParams]);

  /** Applies changes; null/undefined/'' removes a parameter. Filter changes go back to page 1. */
  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>, options: { replace?: boolean } = {}) => {
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          if (next.get('page') === '1') next.delete('page');
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setSearchParams],
  );

  /* The folder is where the user is, not a filter to clear: search, tag and owner count. */
  const hasFilters = Boolean(params.search || params.tag_id || params.owner_id);

  const clearFilters = useCallback(() => update({ search: null, tag: null, owner: null }), [update]);

  return { params, update, hasFilters, clearFilters, searchParams };
}
