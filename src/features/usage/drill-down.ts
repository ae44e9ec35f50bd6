/*
 * Where the usage screen's drill-down stands, kept in the URL beside the days (?start=&end=&member=&session=), so
 * the browser's back and forward buttons, reloads and shared links walk it: the team, one member's sessions, one
 * session's calls.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type DrillDown = { memberId: string | null; sessionId: string | null };

const ID = /^[1-9]\d{0,15}$/;
const idOf = (value: string | null) => (value && ID.test(value) ? value : null);

/** The drill-down a URL's query names; a session is reached through its member, so a session alone is ignored. */
export function drillDownOf(params: URLSearchParams): DrillDown {
  const memberId = idOf(params.get('member'));
  return { memberId, sessionId: memberId ? idOf(params.get('session')) : null };
}

/** The query of a link to `next`, keeping everything else the URL holds (the days). */
export function drillDownSearch(params: URLSearchParams, next: DrillDown): string {
  const search = new URLSearchParams(params);
  search.delete('member');
  search.delete('session');
  if (next.memberId) search.set('member', next.memberId);
  if (next.memberId && next.sessionId) search.set('session', next.sessionId);
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function useDrillDown() {
  const [params] = useSearchParams();
  const at = useMemo(() => drillDownOf(params), [params]);
  const linkTo = useCallback((next: DrillDown) => ({ search: drillDownSearch(params, next) }), [params]);
  return { ...at, linkTo };
}
