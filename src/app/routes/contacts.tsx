import { useQuery } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable, type RowSelectionState, type VisibilityState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../../server/contracts/contacts';
import { contactListQueryOptions, type DeleteMode } from '../../api/contacts';
import { flattenFolders, foldersQueryOptions } from '../../api/folders';
import { tagsQueryOptions } from '../../api/tags';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { useStatus } from '../../components/ui/status-message';
import { BulkActions } from '../../features/contacts/bulk-actions';
import { buildContactColumns } from '../../features/contacts/contact-columns';
import { ContactFormDialog, type ContactEditorTarget } from '../../features/contacts/contact-form-dialog';
import { contactDisplayName } from '../../features/contacts/contact-name';
import { ContactsGrid } from '../../features/contacts/contacts-grid';
import { ContactsToolbar } from '../../features/contacts/contacts-toolbar';
import { LaunchDialog, type DialLaunch } from '../../features/dialer/launch-dialog';
import { DeleteConfirmation, doneMessage, type DeleteRequest } from '../../features/contacts/delete-confirmation';
import { Pagination } from '../../features/contacts/pagination';
import { defaultOrderFor, useContactListParams } from '../../features/contacts/use-contact-list-params';
import { FolderPanel } from '../../features/folders/folder-panel';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

const EMPTY: ContactRecord[] = [];
const VISIBILITY_KEY = 'ringbook.contacts.columns';

function loadVisibility(): VisibilityState {
  try {
    const stored = JSON.parse(window.localStorage.getItem(VISIBILITY_KEY) ?? '{}') as unknown;
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      return Object.fromEntries(Object.entries(stored).filter(([, v]) => typeof v === 'boolean')) as VisibilityState;
    }
  } catch {
    /* unreadable: defaults */
  }
  return {};
}

export function ContactsRoute() {
  const { params, update, hasFilters, clearFilters } = useContactListParams();
  const { announce } = useStatus();
  const list = useQuery(contactListQueryOptions(params));
  const folders = useQuery(foldersQueryOptions());
  const tags = useQuery(tagsQueryOptions());

  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>(loadVisibility);
  const [editor, setEditor] = useState<ContactEditorTarget | null>(null);
  const [deleteRequest, setDeleteRequest] = useState<DeleteRequest | null>(null);
  const [dialLaunch, setDialLaunch] = useState<DialLaunch | null>(null);

  useEffect(() => {
    try {
      window.localStorage.setItem(VISIBILITY_KEY, JSON.stringify(columnVisibility));
    } catch {
      /* storage full or blocked: not worth bothering anyone */
    }
  }, [columnVisibility]);

  /* A selection belongs to one list: a new page, sort or filter starts afresh. */
  const listKey = JSON.stringify(params);
  useEffect(() => setRowSelection({}), [listKey]);

  const openEditor = useCallback((contact: ContactRecord) => {
    setEditor({ kind: 'edit', id: contact.contact_user_id, name: contactDisplayName(contact) });
  }, []);
  const columns = useMemo(() => buildContactColumns(openEditor), [openEditor]);

  const page = list.data;
  const table = useReactTable({
    data: page?.contacts ?? EMPTY,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.contact_user_id,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    pageCount: page?.total_pages ?? -1,
    enableRowSelection: true,
    state: { rowSelection, columnVisibility },
    onRowSelectionChange: setRowSelection,
    onColumnVisibilityChange: setColumnVisibility,
  });

  /* After deletions the page may no longer exist: step back to the last one. */
  useEffect(() => {
    if (page && !list.isPlaceholderData && page.total_pages > 0 && params.page > page.total_pages) {
      update({ page: page.total_pages }, { replace: true });
    }
  }, [page, list.isPlaceholderData, params.page, update]);

  const activeFolder = params.category_id ? flattenFolders(folders.data ?? []).find((f) => f.id === params.category_id) : undefined;
  const activeTag = params.tag_id ? tags.data?.find((t) => String(t.id) === params.tag_id) : undefined;
  const heading = params.category_id ? (activeFolder?.name ?? 'Folder') : 'All contacts';

  useEffect(() => {
    document.title = `${heading} · Ringbook`;
  }, [heading]);

  const selectedIds = Object.keys(rowSelection).filter((id) => rowSelection[id]);

  const onSort = (sortKey: ContactSortColumn) => {
    const order = params.sort_by === sortKey ? (params.sort_order === 'ASC' ? 'DESC' : 'ASC') : defaultOrderFor(sortKey);
    update({ sort_by: sortKey, sort_order: order });
  };

  const askDelete = (mode: DeleteMode) => {
    const ids = selectedIds;
    const single = ids.length === 1 ? page?.contacts.find((c) => c.contact_user_id === ids[0]) : undefined;
    setDeleteRequest({ ids, mode, ...(single ? { name: contactDisplayName(single) } : {}) });
  };

  const onDeleted = (request: DeleteRequest) => {
    setDeleteRequest(null);
    setRowSelection((current) => Object.fromEntries(Object.entries(current).filter(([id]) => !request.ids.includes(id))));
    if (editor?.kind === 'edit' && request.ids.includes(editor.id)) setEditor(null);
    announce(doneMessage(request));
  };

  const filterSummary = [
    params.search ? `matching “${params.search}”` : null,
    activeTag ? `tagged “${activeTag.title}”` : params.tag_id ? 'with the chosen tag' : null,
  ]
    .filter(Boolean)
    .join(', ');

  /* Selected rows are dialed in the grid's order; "Dial all" dials what the grid's filters match. */
  const dialSelected = () => {
    const ids = (page?.contacts ?? []).map((c) => c.contact_user_id).filter((id) => rowSelection[id]);
    setDialLaunch({ target: { kind: 'selected', ids }, summary: formatCount(ids.length, 'selected contact', 'selected contacts') });
  };
  const dialAll = () => {
    const { category_id, tag_id, search } = params;
    const summary = `${page ? formatCount(page.total_results, 'contact', 'contacts') : 'Contacts'} ${activeFolder ? `in ${activeFolder.name}` : ''} ${filterSummary}`;
    setDialLaunch({ target: { kind: 'filter', filter: { category_id, tag_id, search } }, summary: summary.replace(/\s+/g, ' ').trim() });
  };

  const loading = list.isPending;
  const showError = list.isError && !page;
  const isEmpty = !loading && !showError && page !== undefined && page.contacts.length === 0;

  return (
    <div className="flex min-h-0 flex-1">
      <aside className="hidden w-60 shrink-0 border-r border-zinc-200 bg-white px-3 py-5 md:block">
        <FolderPanel activeFolderId={params.category_id} />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col gap-4 px-4 py-5 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{heading}</h1>
            {filterSummary && <p className="text-sm text-zinc-600">Showing contacts {filterSummary}</p>}
          </div>
          {/* Folders on small screens, where the side panel is hidden. */}
          <div className="md:hidden">
            <label className="flex items-center gap-2 text-sm text-zinc-600">
              Folder
              <select
                className="h-9 rounded-md border border-zinc-300 bg-white px-2 text-sm"
                value={params.category_id ?? ''}
                onChange={(e) => update({ folder: e.target.value || null })}
              >
                <option value="">All contacts</option>
                {flattenFolders(folders.data ?? []).map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.parentId ? `\u2003${f.name}` : f.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>

        <ContactsToolbar
          table={table}
          params={params}
          update={update}
          onNewContact={() => setEditor({ kind: 'new' })}
          onDialAll={page && page.total_results > 0 ? dialAll : undefined}
        />

        <BulkActions count={selectedIds.length} onAction={askDelete} onClear={() => setRowSelection({})} onDial={dialSelected} />

        <section aria-label="Contacts" aria-busy={loading || list.isPlaceholderData} className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm">
          {showError ? (
            <ErrorState
              title="Contacts could not be loaded"
              message={errorMessage(list.error)}
              onRetry={() => void list.refetch()}
              retrying={list.isFetching}
            />
          ) : (
            <>
              {loading && <p className="sr-only" role="status">Loading contacts…</p>}
              {!isEmpty && (
                <ContactsGrid
                  table={table}
                  params={params}
                  onSort={onSort}
                  loading={loading}
                  refreshing={list.isFetching && !loading}
                  caption={heading}
                />
              )}
              {isEmpty &&
                (hasFilters ? (
                  <EmptyState
                    title="No contacts match"
                    action={
                      <Button onClick={clearFilters}>Clear search and filters</Button>
                    }
                  >
                    No contacts {activeFolder ? `in ${activeFolder.name} ` : ''}{filterSummary || 'match these filters'}. Try a different search or clear the filters.
                  </EmptyState>
                ) : params.category_id ? (
                  <EmptyState title="This folder is empty">Contacts you file in {activeFolder?.name ?? 'this folder'} appear here.</EmptyState>
                ) : (
                  <EmptyState
                    title="No contacts yet"
                    action={
                      <Button variant="primary" onClick={() => setEditor({ kind: 'new' })}>
                        Add your first contact
                      </Button>
                    }
                  >
                    Contacts you add or import appear here.
                  </EmptyState>
                ))}
            </>
          )}
          {page && !showError && (
            <div className="border-t border-zinc-200 bg-zinc-50 px-3 py-2">
              <Pagination
                page={params.page}
                pageSize={params.page_size}
                totalPages={page.total_pages}
                totalResults={page.total_results}
                disabled={list.isPlaceholderData}
                onPage={(p) => update({ page: p })}
                onPageSize={(size) => update({ page_size: size })}
              />
            </div>
          )}
        </section>
      </div>

      <ContactFormDialog
        target={editor}
        onClose={() => setEditor(null)}
        onSaved={({ message }) => {
          setEditor(null);
          announce(message);
        }}
        onTrash={(contact) => setDeleteRequest({ ids: [contact.contact_user_id], mode: 'trash', name: contactDisplayName(contact) })}
      />
      <DeleteConfirmation request={deleteRequest} onCancel={() => setDeleteRequest(null)} onDone={onDeleted} />
      <LaunchDialog launch={dialLaunch} onClose={() => setDialLaunch(null)} />
    </div>
  );
}
