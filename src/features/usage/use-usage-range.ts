import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParamsQueued } from '../../lib/use-search-params-queued';
import { clockQueryOptions, type DayRange } from '../../api/usage';
import { browserToday, defaultRange, isDay, rangeProblem } from './usage-range';

/**
 * The screen's days live in the URL (?start=&end=), so reload, back and shared links keep them. Without them (or
 * with days the API would refuse) it shows the last 7 days up to the server's today, or the browser's when the
 * server's clock cannot be read. `range` is undefined while that today is still on its way, and so is `today`.
 */
export function useUsageRange() {
  const [searchParams, setSearchParams] = useSearchParamsQueued();
  const clock = useQuery(clockQueryOptions());
  const today = clock.data?.today ?? (clock.isError ? browserToday() : undefined);

  const fromUrl = useMemo<DayRange | null>(() => {
    const start = searchParams.get('start') ?? '';
    const end = searchParams.get('end') ?? '';
    return isDay(start) && isDay(end) && !rangeProblem({ start, end }) ? { start, end } : null;
  }, [searchParams]);

  const range = useMemo(() => fromUrl ?? (today ? defaultRange(today) : undefined), [fromUrl, today]);

  const setRange = useCallback(
    (next: DayRange) => {
      setSearchParams((prev) => {
        const params = new URLSearchParams(prev);
        params.set('start', next.start);
        params.set('end', next.end);
        return params;
      });
    },
    [setSearchParams],
  );

  return { range, today, setRange };
}
