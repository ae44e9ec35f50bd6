import { createColumnHelper, type RowData } from '@tanstack/react-table';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../../server/contracts/contacts';
import { Checkbox } from '../../components/ui/checkbox';
import { formatDate, formatDateTime, formatPhone, ratingValue } from '../../lib/format';
import { contactDisplayName } from './contact-name';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    sortKey?: ContactSortColumn;
    label?: string;
    className?: string;
  }
}

const column = createColumnHelper<ContactRecord>();

function Stars({ value }: { value: number | null }) {
  if (!value) return <span className="text-zinc-400">—</span>;
  return (
    <span className="inline-flex items-center gap-0.5" title={`${value} of 5`}>
      <span className="sr-only">{`${value} of 5`}</span>
      {[1, 2, 3, 4, 5].map((n) => (
        <svg key={n} viewBox="0 0 20 20" fill="currentColor" className={`size-3.5 ${n <= value ? 'text-amber-400' : 'text-zinc-200'}`} aria-hidden="true">
          <path d="M10.868 2.884c-.321-.772-1.415-.772-1.736 0l-1.83 4.401-4.753.381c-.833.067-1.171 1.107-.536 1.651l3.62 3.102-1.106 4.637c-.194.813.691 1.456 1.405 1.02L10 15.591l4.069 2.485c.713.436 1.598-.207 1.404-1.02l-1.106-4.637 3.62-3.102c.635-.544.297-1.584-.536-1.65l-4.752-.382-1.831-4.401Z" />
        </svg>
      ))}
    </span>
  );
}

export function buildContactColumns(onOpen: (contact: ContactRecord) => void) {
  return [
    column.display({
      id: 'select',
      enableHiding: false,
      meta: { className: 'w-10' },
      header: ({ table }) => (
        <Checkbox
          aria-label="Select all on this page"
          checked={table.getIsAllPageRowsSelected()}
          indeterminate={table.getIsSomePageRowsSelected()}
          disabled={table.getRowModel().rows.length === 0}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          aria-label={`Select ${contactDisplayName(row.original)}`}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    }),
    column.accessor((c) => contactDisplayName(c), {
      id: 'name',
      header: 'Name',
      enableHiding: false,
      meta: { sortKey: 'first_name', className: 'min-w-44' },
      cell: ({ row, getValue }) => (
        <button
          type="button"
          onClick={() => onOpen(row.original)}
          className="rounded text-left font-medium text-zinc-900 hover:text-indigo-700 hover:underline"
        >
          {getValue()}
        </button>
      ),
    }),
    column.accessor((c) => c.primary_email?.email_address ?? '', {
      id: 'email',
      header: 'E-mail',
      meta: { sortKey: 'email', label: 'E-mail', className: 'max-w-64' },
      cell: ({ getValue }) => {
        const email = getValue();
        return email ? (
          <a href={`mailto:${email}`} title={email} className="block max-w-64 truncate text-zinc-700 hover:text-indigo-700 hover:underline">
            {email}
          </a>
        ) : (
          <span className="text-zinc-400">—</span>
        );
      },
    }),
    column.accessor((c) => c.primary_phone?.phone ?? '', {
      id: 'phone',
      header: 'Phone',
      meta: { label: 'Phone', className: 'whitespace-nowrap' },
      cell: ({ getValue }) => {
        const phone = getValue();
        return phone ? (
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className="text-zinc-700 tabular-nums hover:text-indigo-700 hover:underline">
            {formatPhone(phone)}
          </a>
        ) : (
          <span className="text-zinc-400">—</span>
        );
      },
    }),
    column.accessor((c) => (c.category_id && c.category_id !== '0' ? c.category?.name || '' : ''), {
      id: 'folder',
      header: 'Folder',
      meta: { label: 'Folder' },
      cell: ({ getValue }) => getValue() || <span className="text-zinc-400">—</span>,
    }),
    column.accessor((c) => c.tags ?? [], {
      id: 'tags',
      header: 'Tags',
      meta: { label: 'Tags', className: 'min-w-32' },
      cell: ({ getValue }) => {
        const tags = getValue();
        if (tags.length === 0) return <span className="text-zinc-400">—</span>;
        const shown = tags.slice(0, 3);
        return (
          <span className="flex flex-wrap gap-1">
            {shown.map((t) => (
              <span key={t.id} className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700">
                {t.title}
              </span>
            ))}
            {tags.length > shown.length && (
              <span className="px-1 text-xs text-zinc-500" title={tags.map((t) => t.title).join(', ')}>
                +{tags.length - shown.length}
              </span>
            )}
          </span>
        );
      },
    }),
    column.accessor((c) => ratingValue(c.rating), {
      id: 'rating',
      header: 'Rating',
      meta: { sortKey: 'rating', label: 'Rating' },
      cell: ({ getValue }) => <Stars value={getValue()} />,
    }),
    column.accessor('date_added', {
      id: 'date_added',
      header: 'Added',
      meta: { sortKey: 'date_added', label: 'Added', className: 'whitespace-nowrap' },
      cell: ({ getValue }) => <time title={formatDateTime(getValue())}>{formatDate(getValue())}</time>,
    }),
    column.accessor('date_modified', {
      id: 'date_modified',
      header: 'Modified',
      meta: { sortKey: 'date_modified', label: 'Modified', className: 'whitespace-nowrap' },
      cell: ({ getValue }) => <time title={formatDateTime(getValue())}>{formatDate(getValue())}</time>,
    }),
  ];
}
