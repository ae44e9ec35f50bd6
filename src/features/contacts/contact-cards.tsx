import type { Table } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { Checkbox } from '../../components/ui/checkbox';
import { CallPhoneButton } from '../dialer/call-phone-button';
import { contactHref, folderNameOf } from './contact-columns';
import { contactDisplayName } from './contact-name';

type Props = { table: Table<ContactRecord>; loading: boolean; onEdit: (contact: ContactRecord) => void; caption: string };

/** Narrow screens: each contact as a card (name, phone, e-mail, folder) with touch-sized targets to select and open. */
export function ContactCards({ table, loading, onEdit, caption }: Props) {
  if (loading) {
    return (
      <ul aria-hidden="true" className="divide-y divide-zinc-100">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="space-y-2 px-4 py-4">
            <div className="h-4 w-1/2 animate-pulse rounded bg-zinc-100" />
            <div className="h-3 w-2/3 animate-pulse rounded bg-zinc-100" />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label={caption} className="divide-y divide-zinc-100">
      {table.getRowModel().rows.map((row) => {
        const c = row.original;
        const name = contactDisplayName(c);
        const phone = c.primary_phone?.phone;
        const email = c.primary_email?.email_address;
        const folder = folderNameOf(c);
        return (
          <li key={row.id} className={`flex items-start gap-1 px-1 py-1 ${row.getIsSelected() ? 'bg-indigo-50/60' : ''}`}>
            <label className="flex size-11 shrink-0 cursor-pointer items-center justify-center">
              <Checkbox
                aria-label={`Select ${name}`}
                checked={row.getIsSelected()}
                onChange={row.getToggleSelectedHandler()}
                className="size-5"
              />
            </label>
            <div className="min-w-0 flex-1 py-2">
              <Link to={contactHref(c)} className="block min-h-6 truncate font-medium text-zinc-900 hover:text-indigo-700">
                {name}
              </Link>
              <dl className="mt-0.5 space-y-0.5 text-sm text-zinc-600">
                {phone && (
                  <div>
                    <dt className="sr-only">Phone</dt>
                    <dd>
                      <CallPhoneButton contactId={c.contact_user_id} phone={phone} className="inline-block py-1" />
                    </dd>
                  </div>
                )}
                {email && (
                  <div>
                    <dt className="sr-only">E-mail</dt>
                    <dd className="truncate">{email}</dd>
                  </div>
                )}
                <div>
                  <dt className="sr-only">Folder</dt>
                  <dd className="text-zinc-500">{folder || 'No folder'}</dd>
                </div>
              </dl>
            </div>
            <button
              type="button"
              onClick={() => onEdit(c)}
              aria-label={`Edit ${name}`}
              className="m-1 min-h-11 shrink-0 rounded-md px-3 text-sm font-medium text-indigo-700 hover:bg-indigo-50"
            >
              Edit
            </button>
          </li>
        );
      })}
    </ul>
  );
}
