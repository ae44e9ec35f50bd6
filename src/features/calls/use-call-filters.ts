import { useCallback, useMemo } from 'react';
import { useSearchParamsQueued } from '../../lib/use-search-params-queued';
import type { CallFilters } from '../../api/calls';

export const FILTER_NAMES = [
  'date_start',
  'date_end',
  'member_id',
  'session_id',
  'disposition',
  'connected',
  'recorded',
  'search',
] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d+$/;
const FLAG = /^[01]$/;

/** What the URL says, with anything malformed dropped (a hand-edited link shows the calls, not an error). */
export function filtersOf(params: URLSearchParams): CallFilters {
  const get = (name: string, valid?: RegExp) => {
    const value = (params.get(name) ?? '').trim();
    return valid && !valid.test(value) ? '' : value;
  };
  return {
    date_start: get('date_start', DAY),
    date_end: get('date_end', DAY),
    member_id: get('member_id', ID),
    session_id: get('session_id', ID),
    disposition: get('disposition').slice(0, 100),
    connected: get('connected', FLAG) as CallFilters['connected'],
    recorded: get('recorded', FLAG) as CallFilters['recorded'],
    search: get('search').slice(0, 200),
  };
}

export const pageOf = (params: URLSearchParams) => {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
};

/** The Calls screen's filters and page, kept in the URL so a reload, a link or Back shows the same calls. */
export function useCallFilters() {
  const [params, setParams] = useSearchParamsQueued();
  const filters = useMemo(() => filtersOf(params), [params]);
  const page = pageOf(params);

  /** Changes some filters; the list starts again at page 1. */
  const setFilters = useCallback(
    (change: Partial<CallFilters>) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(change)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        next.delete('page');
        return next;
      });
    },
    [setParams],
  );

  const setPage = useCallback(
    (to: number) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (to > 1) next.set('page', String(to));
        else next.delete('page');
        return next;
      });
    },
    [setParams],
  );

  const clear = useCallback(() => setParams(() => new URLSearchParams()), [setParams]);
  const active = FILTER_NAMES.some((name) => filters[name] !== '');
  return { filters, page, setFilters, setPage, clear, active };
}
