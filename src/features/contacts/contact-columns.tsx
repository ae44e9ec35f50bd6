import { createColumnHelper, type RowData } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../../server/contracts/contacts';
import type { CustomField } from '../../api/custom-fields';
import { Checkbox } from '../../components/ui/checkbox';
import { formatDate, formatDateTime, formatFieldValue, ratingValue } from '../../lib/format';
import { CallPhoneButton } from '../dialer/call-phone-button';
import { contactDisplayName } from './contact-name';

declare module '@tanstack/react-table' {
  // TanStack Table's own type parameters: an augmentation repeats them, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    sortKey?: ContactSortColumn;
    label?: string;
    className?: string;
    /** Shown in the columns menu under "Custom fields". */
    customField?: boolean;
  }
}

const column = createColumnHelper<ContactRecord>();
const none = <span className="text-zinc-400">—</span>;

function Stars({ value }: { value: number | null }) {
  if (!value) return none;
  return (
    <span className="inline-flex items-center gap-0.5" title={`${value} of 5`}>
      <span className="sr-only">{`${value} of 5`}</span>
      {[1, 2, 3, 4, 5].map((n) => (
        <svg
          key={n}
          viewBox="0 0 20 20"
          fill="currentColor"
          className={`size-3.5 ${n <= value ? 'text-amber-400' : 'text-zinc-200'}`}
          aria-hidden="true"
        >
          <path d="M10.868 2.884c-.321-.772-1.415-.772-1.736 0l-1.83 4.401-4.753.381c-.833.067-1.171 1.107-.536 1.651l3.62 3.102-1.106 4.637c-.194.813.691 1.456 1.405 1.02L10 15.591l4.069 2.485c.713.436 1.598-.207 1.404-1.02l-1.106-4.637 3.62-3.102c.635-.544.297-1.584-.536-1.65l-4.752-.382-1.831-4.401Z" />
        </svg>
      ))}
    </span>
  );
}

export const contactHref = (contact: Pick<ContactRecord, 'contact_user_id'>) => `/contacts/${encodeURIComponent(contact.contact_user_id)}`;

export const folderNameOf = (c: ContactRecord) => (c.category_id && c.category_id !== '0' ? c.category?.name || '' : '');

export type ColumnOptions = {
  onEdit: (contact: ContactRecord) => void;
  /** Which name sort the Name column's header toggles: the one chosen, else first name. */
  nameSortKey: 'first_name' | 'last_name';
  /** Owner names by member id, for managers and the vendor (null: no Owner column). */
  owners: Map<string, string> | null;
  customFields: CustomField[];
};

export const customFieldColumnId = (field: Pick<CustomField, 'id'>) => `cf_${field.id}`;

function selectColumn() {
  return column.display({
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
  });
}

function basicColumns(nameSortKey: ColumnOptions['nameSortKey']) {
  return [
    column.accessor((c) => contactDisplayName(c), {
      id: 'name',
      header: 'Name',
      enableHiding: false,
      meta: { sortKey: nameSortKey, className: 'min-w-36' },
      cell: ({ row, getValue }) => (
        <Link to={contactHref(row.original)} className="rounded font-medium text-zinc-900 hover:text-indigo-700 hover:underline">
          {getValue()}
        </Link>
      ),
    }),
    column.accessor((c) => c.primary_email?.email_address ?? '', {
      id: 'email',
      header: 'E-mail',
      meta: { sortKey: 'email', label: 'E-mail', className: 'max-w-44' },
      cell: ({ getValue }) => {
        const email = getValue();
        return email ? (
          <a href={`mailto:${email}`} title={email} className="block max-w-40 truncate text-zinc-700 hover:text-indigo-700 hover:underline">
            {email}
          </a>
        ) : (
          none
        );
      },
    }),
    column.accessor((c) => c.primary_phone?.phone ?? '', {
      id: 'phone',
      header: 'Phone',
      meta: { label: 'Phone', className: 'whitespace-nowrap' },
      cell: ({ getValue, row }) => {
        const phone = getValue();
        return phone ? <CallPhoneButton contactId={row.original.contact_user_id} phone={phone} /> : none;
      },
    }),
    column.accessor(folderNameOf, {
      id: 'folder',
      header: 'Folder',
      meta: { label: 'Folder', className: 'whitespace-nowrap' },
      cell: ({ getValue }) => getValue() || none,
    }),
    column.accessor((c) => c.tags ?? [], {
      id: 'tags',
      header: 'Tags',
      meta: { label: 'Tags', className: 'min-w-28' },
      cell: ({ getValue }) => {
        const tags = getValue();
        if (tags.length === 0) return none;
        const shown = tags.slice(0, 2);
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

function ownerColumn(owners: Map<string, string>) {
  return column.accessor((c) => owners.get(c.owner_id) ?? '', {
    id: 'owner',
    header: 'Owner',
    meta: { sortKey: 'owner', label: 'Owner', className: 'whitespace-nowrap' },
    cell: ({ getValue }) => getValue() || <span className="text-zinc-500">Another member</span>,
  });
}

function customFieldColumn(field: CustomField) {
  return column.accessor((c) => c.custom_fields?.find((v) => v.custom_field_id === field.id)?.value ?? '', {
    id: customFieldColumnId(field),
    header: field.name,
    meta: { label: field.name, customField: true, className: 'max-w-56' },
    cell: ({ getValue }) => {
      const value = getValue();
      if (!value) return none;
      if (field.typeId === 2 || field.typeId === 3) return formatFieldValue(field.typeId, value);
      return (
        <span className="block max-w-56 truncate" title={value}>
          {value}
        </span>
      );
    },
  });
}

function editColumn(onEdit: ColumnOptions['onEdit']) {
  return column.display({
    id: 'actions',
    enableHiding: false,
    meta: { className: 'w-10' },
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => (
      <button
        type="button"
        onClick={() => onEdit(row.original)}
        aria-label={`Edit ${contactDisplayName(row.original)}`}
        aria-keyshortcuts="E"
        title="Edit (E)"
        className="rounded p-1 text-zinc-500 hover:bg-indigo-50 hover:text-indigo-700"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
          <path d="m5.433 13.917 1.262-3.155A4 4 0 0 1 7.58 9.42l6.92-6.918a2.121 2.121 0 0 1 3 3l-6.92 6.918c-.383.383-.84.685-1.343.886l-3.154 1.262a.5.5 0 0 1-.65-.65Z" />
          <path d="M3.5 5.75c0-.69.56-1.25 1.25-1.25H10A.75.75 0 0 0 10 3H4.75A2.75 2.75 0 0 0 2 5.75v9.5A2.75 2.75 0 0 0 4.75 18h9.5A2.75 2.75 0 0 0 17 15.25V10a.75.75 0 0 0-1.5 0v5.25c0 .69-.56 1.25-1.25 1.25h-9.5c-.69 0-1.25-.56-1.25-1.25v-9.5Z" />
        </svg>
      </button>
    ),
  });
}

export function buildContactColumns({ onEdit, nameSortKey, owners, customFields }: ColumnOptions) {
  return [
    selectColumn(),
    ...basicColumns(nameSortKey),
    ...(owners ? [ownerColumn(owners)] : []),
    ...customFields.map(customFieldColumn),
    editColumn(onEdit),
  ];
}
