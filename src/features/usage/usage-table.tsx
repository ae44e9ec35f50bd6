import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useState } from 'react';
import { Link, useNavigate, type To } from 'react-router';
import { formatMinutes, formatNumber, formatRate, totalsOf, type UsageRow } from './usage-rows';

const column = createColumnHelper<UsageRow>();
type NumericKey = 'sessions' | 'calls' | 'connected' | 'connectRate' | 'voicemail' | 'talktime' | 'avgTalktime';

const NUMERIC: { key: NumericKey; header: string; format: (row: UsageRow) => string }[] = [
  { key: 'sessions', header: 'Sessions', format: (r) => formatNumber(r.sessions) },
  { key: 'calls', header: 'Calls', format: (r) => formatNumber(r.calls) },
  { key: 'connected', header: 'Connected', format: (r) => formatNumber(r.connected) },
  { key: 'connectRate', header: 'Connect rate', format: (r) => formatRate(r.connectRate) },
  { key: 'voicemail', header: 'Voicemails', format: (r) => formatNumber(r.voicemail) },
  { key: 'talktime', header: 'Talk time (min)', format: (r) => formatNumber(r.talktime) },
  { key: 'avgTalktime', header: 'Avg talk time (min)', format: (r) => formatMinutes(r.avgTalktime) },
];

const columns = [
  column.accessor('name', { header: 'Member', sortingFn: 'text' }),
  /* A rate or average without calls ('—') sorts below every figure. */
  ...NUMERIC.map((n) =>
    column.accessor((row) => row[n.key] ?? -1, {
      id: n.key,
      header: n.header,
      cell: (info) => n.format(info.row.original),
      sortingFn: 'basic',
      sortDescFirst: true,
    }),
  ),
];

function SortMark({ direction }: { direction: false | 'asc' | 'desc' }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block w-3 text-[10px] ${direction ? 'text-indigo-600' : 'text-zinc-300 group-hover:text-zinc-400'}`}
    >
      {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
    </span>
  );
}

type Props = {
  rows: UsageRow[];
  caption: string;
  showTotals: boolean;
  /** Where a member's row leads (its sessions: the drill-down), or null for a row that leads nowhere. */
  linkOf: (row: UsageRow) => To | null;
};

/** Clicks anywhere on a row follow its link; keyboards and screen readers use the link itself. */
const fromOwnControl = (target: EventTarget) => target instanceof Element && target.closest('a, button') !== null;

/** The figures per member, sorted in the browser by any column; totals stay last whatever the order. Each row opens its member. */
export function UsageTable({ rows, caption, showTotals, linkOf }: Props) {
  const navigate = useNavigate();
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (row) => row.id,
  });
  const totals = totalsOf(rows);

  return (
    <div className="flex flex-col">
      {/* The caption names the table; this copy stays in view while a narrow screen scrolls the table sideways. */}
      <p aria-hidden="true" className="px-3 pt-3 pb-2 text-sm font-medium text-zinc-700">
        {caption}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-zinc-50">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className="border-y border-zinc-200">
                {group.headers.map((header) => {
                  const direction = header.column.getIsSorted();
                  const numeric = header.column.id !== 'name';
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                      className={`px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-zinc-600 uppercase ${numeric ? 'text-right' : 'text-left'}`}
                    >
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className="group -mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-zinc-900"
                      >
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <SortMark direction={direction} />
                      </button>
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {table.getRowModel().rows.map((row) => {
              const to = linkOf(row.original);
              return (
                <tr
                  key={row.id}
                  className={to ? 'cursor-pointer hover:bg-zinc-50' : ''}
                  onClick={(e) => to && !fromOwnControl(e.target) && void navigate(to)}
                >
                  {row.getVisibleCells().map((cell) =>
                    cell.column.id === 'name' ? (
                      <th key={cell.id} scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap text-zinc-900">
                        {to ? (
                          <Link to={to} className="text-indigo-700 underline-offset-2 hover:underline focus-visible:underline">
                            {row.original.name}
                          </Link>
                        ) : (
                          row.original.name
                        )}
                      </th>
                    ) : (
                      <td key={cell.id} className="px-3 py-2.5 text-right text-zinc-700 tabular-nums">
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ),
                  )}
                </tr>
              );
            })}
          </tbody>
          {showTotals && (
            <tfoot className="border-t-2 border-zinc-200 bg-zinc-50 font-semibold">
              <tr>
                <th scope="row" className="px-3 py-2.5 text-left text-zinc-900">
                  Total
                </th>
                {NUMERIC.map((n) => (
                  <td key={n.key} className="px-3 py-2.5 text-right text-zinc-900 tabular-nums">
                    {n.format(totals)}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </div>
  );
}
