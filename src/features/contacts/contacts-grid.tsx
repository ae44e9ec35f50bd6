import { flexRender, type Table } from '@tanstack/react-table';
import { useEffect, useId, useRef } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactListParams } from '../../api/contacts';
import { useGridKeyboard } from './use-grid-keyboard';

type Props = {
  table: Table<ContactRecord>;
  params: ContactListParams;
  totalResults: number;
  onSort: (sortKey: NonNullable<ContactListParams['sort_by']>) => void;
  onOpen: (contact: ContactRecord) => void;
  onEdit: (contact: ContactRecord) => void;
  /** Initial load: skeleton rows. */
  loading: boolean;
  /** A newer page is on its way while the previous one stays visible. */
  refreshing: boolean;
  caption: string;
};

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      className={`size-3.5 ${direction === 'none' ? 'text-zinc-300 group-hover:text-zinc-400' : 'text-indigo-600'}`}
      aria-hidden="true"
    >
      {direction === 'ascending' ? (
        <path
          fillRule="evenodd"
          d="M10 5a.75.75 0 0 1 .55.24l4 4.25a.75.75 0 1 1-1.1 1.02L10 6.84l-3.45 3.67a.75.75 0 1 1-1.1-1.02l4-4.25A.75.75 0 0 1 10 5Z"
          clipRule="evenodd"
        />
      ) : direction === 'descending' ? (
        <path
          fillRule="evenodd"
          d="M10 15a.75.75 0 0 1-.55-.24l-4-4.25a.75.75 0 1 1 1.1-1.02L10 13.16l3.45-3.67a.75.75 0 1 1 1.1 1.02l-4 4.25A.75.75 0 0 1 10 15Z"
          clipRule="evenodd"
        />
      ) : (
        <path
          fillRule="evenodd"
          d="M10 3a.75.75 0 0 1 .55.24l3.25 3.5a.75.75 0 1 1-1.1 1.02L10 4.852 7.3 7.76a.75.75 0 0 1-1.1-1.02l3.25-3.5A.75.75 0 0 1 10 3Zm-3.76 9.2a.75.75 0 0 1 1.06.04l2.7 2.908 2.7-2.908a.75.75 0 1 1 1.1 1.02l-3.25 3.5a.75.75 0 0 1-1.1 0l-3.25-3.5a.75.75 0 0 1 .04-1.06Z"
          clipRule="evenodd"
        />
      )}
    </svg>
  );
}

function HeaderRow({ table, params, onSort }: Pick<Props, 'table' | 'params' | 'onSort'>) {
  return table.getHeaderGroups().map((group) => (
    <tr key={group.id} aria-rowindex={1}>
      {group.headers.map((header) => {
        const meta = header.column.columnDef.meta;
        const sortKey = meta?.sortKey;
        const direction = sortKey && params.sort_by === sortKey ? (params.sort_order === 'ASC' ? 'ascending' : 'descending') : 'none';
        return (
          <th
            key={header.id}
            scope="col"
            aria-sort={sortKey ? direction : undefined}
            className={`sticky top-0 z-[1] border-b border-zinc-200 bg-zinc-50 px-2 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-zinc-600 uppercase ${meta?.className ?? ''}`}
          >
            {header.isPlaceholder ? null : sortKey ? (
              <button
                type="button"
                onClick={() => onSort(sortKey)}
                className="group -mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-zinc-900"
              >
                {flexRender(header.column.columnDef.header, header.getContext())}
                <SortIcon direction={direction} />
              </button>
            ) : (
              flexRender(header.column.columnDef.header, header.getContext())
            )}
          </th>
        );
      })}
    </tr>
  ));
}

/**
 * The contact list as an ARIA grid (one Tab stop, arrow keys between cells: use-grid-keyboard.ts), scrolling
 * inside a box of the viewport's height so its header row and horizontal scrollbar stay in reach. Sorting and
 * paging happen on the server.
 */
export function ContactsGrid({ table, params, totalResults, onSort, onOpen, onEdit, loading, refreshing, caption }: Props) {
  const columns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  const tableRef = useRef<HTMLTableElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const pageKey = JSON.stringify(params);
  const nameCol = Math.max(
    0,
    columns.findIndex((c) => c.id === 'name'),
  );
  const firstRowIndex = (params.page - 1) * params.page_size + 2;

  const keyboard = useGridKeyboard(tableRef, {
    initial: { row: 1, col: nameCol },
    resetKey: pageKey,
    onOpen: (i) => rows[i] && onOpen(rows[i].original),
    onEdit: (i) => rows[i] && onEdit(rows[i].original),
    onToggle: (i) => rows[i]?.toggleSelected(),
  });

  /* A new page starts at its top. */
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [pageKey]);

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden" aria-hidden="true">
        {refreshing && <div className="animate-progress h-full w-1/3 bg-indigo-500" />}
      </div>
      <div ref={scrollRef} className="min-h-0 flex-1 scroll-pt-10 overflow-auto" data-testid="grid-scroll">
        <table
          ref={tableRef}
          role="grid"
          aria-labelledby={captionId}
          aria-rowcount={loading ? -1 : totalResults + 1}
          aria-multiselectable="true"
          aria-busy={loading || refreshing}
          onKeyDown={keyboard.onKeyDown}
          onFocus={keyboard.onFocus}
          className={`w-full border-separate border-spacing-0 text-sm transition-opacity ${refreshing ? 'opacity-70' : ''}`}
        >
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          <thead>
            <HeaderRow table={table} params={params} onSort={onSort} />
          </thead>
          <tbody className="bg-white">
            {loading
              ? Array.from({ length: 8 }, (_, i) => (
                  <tr key={i} aria-hidden="true">
                    {columns.map((c) => (
                      <td key={c.id} className="border-b border-zinc-100 px-3 py-3">
                        <div
                          className="h-3.5 animate-pulse rounded bg-zinc-100"
                          style={{ width: c.id === 'select' ? 16 : `${50 + ((i * 37 + c.id.length * 13) % 45)}%` }}
                        />
                      </td>
                    ))}
                  </tr>
                ))
              : rows.map((row, i) => (
                  <tr
                    key={row.id}
                    aria-rowindex={firstRowIndex + i}
                    aria-selected={row.getIsSelected()}
                    className={row.getIsSelected() ? 'bg-indigo-50/60' : 'hover:bg-zinc-50'}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td
                        key={cell.id}
                        className={`border-b border-zinc-100 px-2 py-2.5 align-middle text-zinc-700 focus:outline-2 focus:-outline-offset-2 focus:outline-indigo-600 ${cell.column.columnDef.meta?.className ?? ''}`}
                      >
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
