import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';

type Props = {
  title: string;
  /** A sentence of what the chart shows, read out with it and shown under the title. */
  summary: string;
  /** The same figures as a table: visually hidden beside the chart (screen readers read it), or shown instead of it. */
  table: ReactNode;
  children: ReactNode;
};

/** A chart with its caption, its summary and its figures as a table, which "Show as table" puts in its place. */
export function ChartFigure({ title, summary, table, children }: Props) {
  const [asTable, setAsTable] = useState(false);
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId} className="flex min-w-0 flex-col gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={captionId} className="text-sm font-semibold text-zinc-900">
          {title}
        </figcaption>
        <Button size="sm" variant="ghost" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          Show as table
        </Button>
      </div>
      <p className="text-xs text-zinc-600">{summary}</p>
      {!asTable && <div className="min-w-0">{children}</div>}
      <div className={asTable ? 'overflow-x-auto' : 'sr-only'}>{table}</div>
    </figure>
  );
}

type StateProps = {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
};

/** A chart's place while its figures load or when they could not be read; null once they are there. */
export function ChartState({ title, query }: StateProps) {
  if (query.isPending) {
    return (
      <div aria-busy="true" className="flex min-h-40 items-center justify-center p-4">
        <Spinner label={`Loading ${title.toLowerCase()}…`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="p-4">
        <ErrorState
          title={`${title} could not be loaded`}
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }
  return null;
}

/** The figures of a chart as a table: a caption, a header row and a row per entry (its first cell the row's header). */
export function FiguresTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: { key: string; cells: string[] }[] }) {
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
        <tr>
          {headers.map((h, i) => (
            <th key={h} scope="col" className={`px-3 py-2 whitespace-nowrap ${i ? 'text-right' : 'text-left'}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="px-3 py-1.5 text-left font-medium whitespace-nowrap text-zinc-900">
                  {cell}
                </th>
              ) : (
                <td key={i} className="px-3 py-1.5 text-right text-zinc-700 tabular-nums">
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
