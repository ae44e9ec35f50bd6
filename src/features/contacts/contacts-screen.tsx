import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../../server/contracts/contacts';
import type { BulkAction } from '../../../server/contracts/bulk-jobs';
import { contactListQueryOptions, filterOf, refreshContactsAndCounts } from '../../api/contacts';
import { flattenFolders, foldersQueryOptions } from '../../api/folders';
import { tagsQueryOptions } from '../../api/tags';
import type { DialContactFilter } from '../../api/dial-sessions';
import { useStatus } from '../../components/ui/status-message';
import { LaunchDialog, type DialLaunch } from '../dialer/launch-dialog';
import { formatCount } from '../../lib/format';
import { BulkActions } from './bulk-actions';
import { BulkJobDialog, type BulkDraft, type StartedJob } from './bulk-job-dialog';
import { BulkJobProgress } from './bulk-job-progress';
import { contactHref } from './contact-columns';
import { ContactFormDialog, type ContactEditorTarget } from './contact-form-dialog';
import { contactDisplayName } from './contact-name';
import { ContactsList } from './contacts-list';
import { ContactsActions, ContactsToolbar } from './contacts-toolbar';
import { DeleteConfirmation, doneMessage, type DeleteRequest } from './delete-confirmation';
import { defaultOrderFor, useContactListParams } from './use-contact-list-params';
import { useContactSelection } from './use-contact-selection';
import { useContactsExport } from './use-contacts-export';
import { useGridColumns } from './use-grid-columns';
import { FolderPanel, NO_FOLDER } from '../folders/folder-panel';

const EMPTY: ContactRecord[] = [];

/** The contacts screen: folders, the filtered and sorted grid, selection and bulk changes, and the editors. */
export function ContactsScreen() {
  const { params, update, hasFilters, clearFilters } = useContactListParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { announce } = useStatus();
  const list = useQuery(contactListQueryOptions(params));
  const folders = useQuery(foldersQueryOptions());
  const tags = useQuery(tagsQueryOptions());

  const [editor, setEditor] = useState<ContactEditorTarget | null>(null);
  const [deleteRequest, setDeleteRequest] = useState<DeleteRequest | null>(null);
  const [dialLaunch, setDialLaunch] = useState<DialLaunch | null>(null);
  const [bulkDraft, setBulkDraft] = useState<BulkDraft | null>(null);
  const [job, setJob] = useState<StartedJob | null>(null);

  const openEditor = useCallback((contact: ContactRecord) => {
    setEditor({ kind: 'edit', id: contact.contact_user_id, name: contactDisplayName(contact) });
  }, []);
  const grid = useGridColumns(params, openEditor);

  const page = list.data;
  const rows = page?.contacts ?? EMPTY;
  const total = page?.total_results ?? 0;
  const filter = useMemo(() => filterOf(params), [params]);
  const selection = useContactSelection(filter, rows, total);

  const table = useReactTable({
    data: rows,
    columns: grid.columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.contact_user_id,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    pageCount: page?.total_pages ?? -1,
    enableRowSelection: true,
    state: { rowSelection: selection.rowSelection, columnVisibility: grid.columnVisibility },
    onRowSelectionChange: selection.onRowSelectionChange,
    onColumnVisibilityChange: grid.setColumnVisibility,
  });

  /* After deletions the page may no longer exist: step back to the last one. */
  useEffect(() => {
    if (page && !list.isPlaceholderData && page.total_pages > 0 && params.page > page.total_pages) {
      update({ page: page.total_pages }, { replace: true });
    }
  }, [page, list.isPlaceholderData, params.page, update]);

  const activeFolder = params.category_id ? flattenFolders(folders.data ?? []).find((f) => f.id === params.category_id) : undefined;
  const activeTag = params.tag_id ? tags.data?.find((t) => String(t.id) === params.tag_id) : undefined;
  const activeOwner = params.owner_id ? grid.owners?.find((o) => o.id === params.owner_id) : undefined;
  const heading = params.category_id ? (activeFolder?.name ?? 'Folder') : params.no_folder ? 'Not in a folder' : 'All contacts';

  useEffect(() => {
    document.title = `${heading} · Ringbook`;
  }, [heading]);

  const filterSummary = [
    params.search ? `matching “${params.search}”` : null,
    activeTag ? `tagged “${activeTag.title}”` : params.tag_id ? 'with the chosen tag' : null,
    activeOwner ? `owned by ${activeOwner.name}` : params.owner_id ? 'of the chosen owner' : null,
  ]
    .filter(Boolean)
    .join(', ');

  const onSort = (sortKey: ContactSortColumn) => {
    const order = params.sort_by === sortKey ? (params.sort_order === 'ASC' ? 'DESC' : 'ASC') : defaultOrderFor(sortKey);
    update({ sort_by: sortKey, sort_order: order });
  };

  /* "Dial all" (and dialing an all-matching selection) dials what the grid's filters match. */
  const dialAll = () => {
    /* The grid's sort goes with it: the session dials the rows in the order the grid shows them. */
    const dialFilter: DialContactFilter = { ...filter, sort_by: params.sort_by, sort_order: params.sort_order };
    const where = activeFolder ? `in ${activeFolder.name}` : params.no_folder ? 'not in a folder' : '';
    const summary = `${formatCount(total, 'contact', 'contacts')} ${where} ${filterSummary}`;
    setDialLaunch({ target: { kind: 'filter', filter: dialFilter }, summary: summary.replace(/\s+/g, ' ').trim() });
  };
  /* Picked contacts are dialed in the grid's order on this page, then those picked on other pages as they were picked. */
  const dialSelected = () => {
    if (selection.allMatching) return dialAll();
    const onPage = rows.map((c) => c.contact_user_id).filter((id) => selection.ids.includes(id));
    const ids = [...onPage, ...selection.ids.filter((id) => !onPage.includes(id))];
    setDialLaunch({ target: { kind: 'selected', ids }, summary: formatCount(ids.length, 'selected contact', 'selected contacts') });
  };

  const { exporting, exportView, exportSelected } = useContactsExport({
    view: { ...filter, sort_by: params.sort_by, sort_order: params.sort_order },
    total,
    ids: selection.ids,
    allMatching: selection.allMatching,
  });

  const startBulk = (action: BulkAction) =>
    setBulkDraft({ action, selection: selection.bulkSelection(), count: selection.count, fromSelection: true });

  const onJobStarted = (started: StartedJob) => {
    setBulkDraft(null);
    setJob(started);
    const ids = started.selection.kind === 'ids' ? started.selection.ids : [];
    if (started.action === 'trash' && editor?.kind === 'edit' && ids.includes(editor.id)) setEditor(null);
  };

  const clearSelection = selection.clear;
  const fromSelection = job?.fromSelection ?? false;
  const onJobFinished = useCallback(() => {
    if (fromSelection) clearSelection();
    void refreshContactsAndCounts(queryClient);
  }, [fromSelection, clearSelection, queryClient]);

  const onDeleted = (request: DeleteRequest) => {
    setDeleteRequest(null);
    selection.forget(request.ids);
    if (editor?.kind === 'edit' && request.ids.includes(editor.id)) setEditor(null);
    announce(doneMessage(request));
  };

  const askDeletePermanently = () => {
    const single = selection.ids.length === 1 ? rows.find((c) => c.contact_user_id === selection.ids[0]) : undefined;
    setDeleteRequest({ ids: selection.ids, ...(single ? { name: contactDisplayName(single) } : {}) });
  };

  return (
    <div className="flex min-h-0 flex-1 sm:h-[calc(100dvh-3.5rem-1px)] sm:max-h-[calc(100dvh-3.5rem-1px)]">
      <aside className="hidden w-48 shrink-0 overflow-y-auto border-r border-zinc-200 bg-white px-3 py-5 md:block">
        <FolderPanel activeFolderId={params.no_folder ? NO_FOLDER : params.category_id} />
      </aside>

      <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-3 px-4 py-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            <h1 tabIndex={-1} className="text-xl font-semibold tracking-tight text-zinc-900 focus:outline-none">
              {heading}
            </h1>
            {filterSummary && <p className="text-sm text-zinc-600">Showing contacts {filterSummary}</p>}
          </div>
          <ContactsActions
            table={table}
            onNewContact={() => setEditor({ kind: 'new' })}
            onDialAll={total > 0 ? dialAll : undefined}
            onExport={total > 0 ? exportView : undefined}
          />
          {/* Folders on small screens, where the side panel is hidden. */}
          <div className="w-full md:hidden">
            <label className="flex items-center gap-2 text-sm text-zinc-600">
              Folder
              {/* A long folder name would widen the select past the screen: it takes the row's width at most. */}
              <select
                className="h-9 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 text-sm"
                value={params.no_folder ? NO_FOLDER : (params.category_id ?? '')}
                onChange={(e) => update({ folder: e.target.value || null })}
              >
                <option value="">All contacts</option>
                <option value={NO_FOLDER}>Not in a folder</option>
                {flattenFolders(folders.data ?? []).map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.parentId ? `\u2003${f.name}` : f.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>

        <ContactsToolbar params={params} update={update} owners={grid.owners} />

        {job && <BulkJobProgress key={job.job.bulk_job_id} started={job} onFinished={onJobFinished} onDismiss={() => setJob(null)} />}

        <BulkActions
          count={selection.count}
          allMatching={selection.allMatching}
          canSelectAllMatching={rows.length > 0 && table.getIsAllPageRowsSelected() && total > selection.count}
          totalResults={total}
          canTransfer={grid.canTransfer}
          onSelectAllMatching={selection.selectAllMatching}
          onClear={selection.clear}
          onDial={dialSelected}
          onExport={exportSelected}
          exporting={exporting}
          onBulk={startBulk}
          onDeletePermanently={askDeletePermanently}
        />

        <ContactsList
          table={table}
          list={list}
          params={params}
          heading={heading}
          hasFilters={hasFilters}
          emptyText={`No contacts ${activeFolder ? `in ${activeFolder.name} ` : ''}${filterSummary || 'match these filters'}.`}
          folderName={activeFolder?.name}
          onClearFilters={clearFilters}
          onNewContact={() => setEditor({ kind: 'new' })}
          onSort={onSort}
          onOpen={(contact) => void navigate(contactHref(contact))}
          onEdit={openEditor}
          onPage={(p) => update({ page: p })}
          onPageSize={(size) => update({ page_size: size })}
        />
      </div>

      <ContactFormDialog
        target={editor}
        onClose={() => setEditor(null)}
        onSaved={({ message }) => {
          setEditor(null);
          announce(message);
        }}
        onTrash={(contact) =>
          setBulkDraft({ action: 'trash', selection: { kind: 'ids', ids: [contact.contact_user_id] }, count: 1, fromSelection: false })
        }
      />
      <BulkJobDialog draft={bulkDraft} owners={grid.owners} onClose={() => setBulkDraft(null)} onStarted={onJobStarted} />
      <DeleteConfirmation request={deleteRequest} onCancel={() => setDeleteRequest(null)} onDone={onDeleted} />
      <LaunchDialog launch={dialLaunch} onClose={() => setDialLaunch(null)} />
    </div>
  );
}
