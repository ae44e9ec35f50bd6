import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamsQueued } from '../../lib/use-search-params-queued';
import { trashQueryOptions } from '../../api/trash';
import { Checkbox } from '../../components/ui/checkbox';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, formatPhone } from '../../lib/format';
import { contactDisplayName } from '../contacts/contact-name';
import { Pagination } from '../contacts/pagination';
import { TrashActions } from './trash-actions';

const PAGE_SIZES = [10, 25, 50, 100];

/** Contacts in the trash, newest change first: restore them or delete them for good. */
export function TrashScreen() {
  const [searchParams, setSearchParams] = useSearchParamsQueued();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const sizeParam = Number(searchParams.get('page_size'));
  const pageSize = PAGE_SIZES.includes(sizeParam) ? sizeParam : 25;
  const trash = useQuery(trashQueryOptions({ page, page_size: pageSize }));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const rows = trash.data?.contacts ?? [];
  const ids = rows.map((c) => c.contact_user_id);
  const chosen = ids.filter((id) => selected.has(id));

  useEffect(() => {
    document.title = 'Trash · Ringbook';
  }, []);
  useEffect(() => setSelected(new Set()), [page, pageSize]);
  /* After restoring or deleting the last rows of a page, step back to the last page there is. */
  useEffect(() => {
    const data = trash.data;
    if (data && !trash.isPlaceholderData && data.totalPages > 0 && page > data.totalPages) {
      setSearchParams(
        (p) => {
          p.set('page', String(data.totalPages));
          return p;
        },
        { replace: true },
      );
    }
  }, [trash.data, trash.isPlaceholderData, page, setSearchParams]);

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allChosen = ids.length > 0 && chosen.length === ids.length;
  const single = chosen.length === 1 ? rows.find((c) => c.contact_user_id === chosen[0]) : undefined;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-4 px-4 py-5 sm:px-6">
      <PageHeader
        title="Trash"
        description="Contacts moved to the trash leave lists and dial sessions. Restore them, or delete them for good."
      />
      <TrashActions
        ids={chosen}
        name={single ? contactDisplayName(single) : undefined}
        onDone={(done) => setSelected((s) => new Set([...s].filter((id) => !done.includes(id))))}
      />
      <section
        aria-label="Contacts in the trash"
        aria-busy={trash.isFetching}
        className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm"
      >
        {trash.isPending && (
          <div className="flex justify-center py-12">
            <Spinner label="Loading the trash…" />
          </div>
        )}
        {trash.isError && !trash.data && (
          <ErrorState
            title="The trash could not be loaded"
            message={errorMessage(trash.error)}
            onRetry={() => void trash.refetch()}
            retrying={trash.isFetching}
          />
        )}
        {trash.data && trash.data.total === 0 && (
          <EmptyState title="The trash is empty">Contacts you move to the trash appear here until you restore or delete them.</EmptyState>
        )}
        {rows.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Contacts in the trash</caption>
              <thead className="bg-zinc-50 text-xs text-zinc-500">
                <tr>
                  <th scope="col" className="w-10 px-3 py-2">
                    <Checkbox
                      aria-label="Select all on this page"
                      checked={allChosen}
                      indeterminate={chosen.length > 0 && !allChosen}
                      onChange={(e) => setSelected(e.target.checked ? new Set(ids) : new Set())}
                    />
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    E-mail
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Phone
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Folder
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Last changed
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {rows.map((c) => {
                  const name = contactDisplayName(c);
                  return (
                    <tr key={c.contact_user_id} className={selected.has(c.contact_user_id) ? 'bg-indigo-50/50' : undefined}>
                      <td className="px-3 py-2">
                        <Checkbox
                          aria-label={`Select ${name}`}
                          checked={selected.has(c.contact_user_id)}
                          onChange={(e) => toggle(c.contact_user_id, e.target.checked)}
                        />
                      </td>
                      <th scope="row" className="px-2 py-2 font-medium">
                        <Link to={`/contacts/${c.contact_user_id}`} className="text-zinc-900 hover:text-indigo-700 hover:underline">
                          {name}
                        </Link>
                      </th>
                      <td className="max-w-64 truncate px-2 py-2 text-zinc-700">{c.primary_email?.email_address || '—'}</td>
                      <td className="px-2 py-2 whitespace-nowrap text-zinc-700 tabular-nums">
                        {formatPhone(c.primary_phone?.phone) || '—'}
                      </td>
                      <td className="px-2 py-2 text-zinc-700">{c.category_id !== '0' ? c.category?.name : '—'}</td>
                      <td className="px-3 py-2 whitespace-nowrap text-zinc-500">{formatDateTime(c.date_modified)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {trash.data && trash.data.total > 0 && (
          <div className="border-t border-zinc-200 bg-zinc-50 px-3 py-2">
            <Pagination
              page={page}
              pageSize={pageSize}
              totalPages={trash.data.totalPages}
              totalResults={trash.data.total}
              busy={trash.isPlaceholderData}
              onPage={(p) =>
                setSearchParams((s) => {
                  s.set('page', String(p));
                  return s;
                })
              }
              onPageSize={(n) =>
                setSearchParams((s) => {
                  s.set('page_size', String(n));
                  s.delete('page');
                  return s;
                })
              }
            />
          </div>
        )}
      </section>
    </div>
  );
}
