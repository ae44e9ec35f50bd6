import { useCallback, useRef } from 'react';
import { useLocation, useSearchParams, type NavigateOptions } from 'react-router';

type Change = (current: URLSearchParams) => URLSearchParams;

/**
 * React Router's `useSearchParams`, with changes that build on each other. Its own functional form is given the
 * parameters of the render that made the setter, not the latest asked for: two changes before the router commits the
 * first (a filter cleared, then a sort chosen, on a busy machine) lose the first, or bring it back. Here each change
 * starts from the last one asked for until the router has committed it; a navigation the hook did not ask for (Back,
 * a link) starts afresh from what it shows. A change asked for once the app has left the screen (a debounced search
 * landing just after a click on a contact's link) is dropped: it would take the user back to the screen they left.
 */
export function useSearchParamsQueued(): [URLSearchParams, (change: Change, options?: NavigateOptions) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const asked = useRef<string[]>([]);
  const seen = useRef(searchParams.toString());

  const now = searchParams.toString();
  if (now !== seen.current) {
    seen.current = now;
    const at = asked.current.indexOf(now);
    asked.current = at >= 0 ? asked.current.slice(at + 1) : [];
  }
  const current = useRef(searchParams);
  current.current = searchParams;

  const update = useCallback(
    (change: Change, options?: NavigateOptions) => {
      if (window.location.pathname !== pathname) return;
      const last = asked.current.at(-1);
      const next = change(new URLSearchParams(last ?? current.current));
      if (asked.current.length > 0 || next.toString() !== seen.current) asked.current = [...asked.current, next.toString()];
      setSearchParams(next, options);
    },
    [setSearchParams, pathname],
  );
  return [searchParams, update];
}
