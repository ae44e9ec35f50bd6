import { useId } from 'react';
import { formatNumber, formatRate, type UsageRow } from './usage-rows';

/**
 * Calls and connected calls per member as bars on one scale. Each bar's figures are written beside it, so the text is
 * the chart's own alternative and the bars are decoration to screen readers.
 */
export function UsageChart({ rows }: { rows: UsageRow[] }) {
  const captionId = useId();
  const max = Math.max(1, ...rows.map((r) => r.calls));
  const width = (n: number) => `${Math.max(n ? 1 : 0, (n / max) * 100)}%`;

  return (
    <figure aria-labelledby={captionId} className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={captionId} className="text-sm font-medium text-zinc-700">
          Calls and connected calls per member
        </figcaption>
        <div className="flex items-center gap-3 text-xs text-zinc-600" aria-hidden="true">
          <span className="flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm bg-indigo-200" /> Calls
          </span>
          <span className="flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm bg-indigo-600" /> Connected
          </span>
        </div>
      </div>
      <ul className="flex flex-col gap-3">
        {rows.map((row) => (
          <li key={row.id} className="grid grid-cols-1 gap-1 sm:grid-cols-[10rem_1fr] sm:items-center sm:gap-3">
            <p className="flex justify-between gap-2 text-sm sm:block">
              <span className="truncate font-medium text-zinc-900">{row.name}</span>
              <span className="text-xs whitespace-nowrap text-zinc-600 sm:block">
                {formatNumber(row.calls)} {row.calls === 1 ? 'call' : 'calls'}, {formatNumber(row.connected)} connected
                <span className="sr-only"> ({formatRate(row.connectRate)})</span>
              </span>
            </p>
            <div className="relative h-5 overflow-hidden rounded bg-zinc-100" aria-hidden="true">
              <div className="absolute inset-y-0 left-0 rounded bg-indigo-200" style={{ width: width(row.calls) }} />
              <div className="absolute inset-y-0 left-0 rounded bg-indigo-600" style={{ width: width(row.connected) }} />
            </div>
          </li>
        ))}
      </ul>
    </figure>
  );
}
