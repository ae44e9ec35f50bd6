import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { flattenFolders, folderTreeQueryOptions, type Folder } from '../../api/folders';
import { MenuButton, type MenuItem } from '../../components/ui/menu';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { DeleteFolderDialog, FolderFormDialog, type FolderEdit } from './folder-dialogs';

/** The panel's entry for the contacts in no folder (`?folder=none`, the list's `no_folder=1`). */
export const NO_FOLDER = 'none';

function hrefFor(current: URLSearchParams, folderId: string | null): string {
  const next = new URLSearchParams(current);
  next.delete('page');
  if (folderId) next.set('folder', folderId);
  else next.delete('folder');
  const qs = next.toString();
  return qs ? `?${qs}` : '?';
}

const itemClass = (active: boolean, depth: number) =>
  `flex min-w-0 flex-1 items-center gap-2 rounded-md py-1.5 pr-2 text-sm ${depth > 0 ? 'pl-8' : 'pl-2'} ${
    active ? 'bg-indigo-50 font-medium text-indigo-700' : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900'
  }`;

const VENDOR_ONLY = 'Only the vendor can rename, describe or delete folders: they are shared by the whole organisation.';

function FolderIcon({ open }: { open: boolean }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      className={`size-4 shrink-0 ${open ? 'text-indigo-500' : 'text-zinc-400'}`}
      aria-hidden="true"
    >
      <path d="M3.75 3A1.75 1.75 0 0 0 2 4.75v10.5c0 .966.784 1.75 1.75 1.75h12.5A1.75 1.75 0 0 0 18 15.25v-8.5A1.75 1.75 0 0 0 16.25 5h-5.69l-1.28-1.28A2.5 2.5 0 0 0 7.51 3H3.75Z" />
    </svg>
  );
}

/* The count is shown bare; the link's name says it in words ("Prospects, 316 contacts"). */
function Count({ n }: { n: number }) {
  return (
    <span aria-hidden="true" className="ml-auto shrink-0 text-xs text-zinc-500 tabular-nums">
      {n.toLocaleString()}
    </span>
  );
}

type ItemProps = {
  folder: Folder;
  depth: number;
  activeId: string | undefined;
  searchParams: URLSearchParams;
  actionsFor: (folder: Folder) => MenuItem[];
};

function FolderItem({ folder, depth, activeId, searchParams, actionsFor }: ItemProps) {
  const active = folder.id === activeId;
  return (
    <li>
      <div className="group flex items-center gap-0.5">
        <Link
          to={hrefFor(searchParams, folder.id)}
          aria-current={active ? 'page' : undefined}
          aria-label={`${folder.name}, ${formatCount(folder.contactCount, 'contact', 'contacts')}`}
          className={itemClass(active, depth)}
          title={folder.description ? `${folder.name}: ${folder.description}` : folder.name}
        >
          <FolderIcon open={active} />
          {/* Cut with an ellipsis in a narrow panel (the title holds the whole name); wrapped where the panel is wide. */}
          <span className="truncate xl:break-words xl:whitespace-normal">{folder.name}</span>
          <Count n={folder.contactCount} />
        </Link>
        <MenuButton label={`Actions for folder ${folder.name}`} items={actionsFor(folder)} />
      </div>
      {folder.children.length > 0 && (
        <ul className="mt-0.5 space-y-0.5">
          {folder.children.map((child) => (
            <FolderItem
              key={child.id}
              folder={child}
              depth={depth + 1}
              activeId={activeId}
              searchParams={searchParams}
              actionsFor={actionsFor}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** "All contacts" plus the folder tree with counts; the chosen folder filters the grid through ?folder=. */
export function FolderPanel({ activeFolderId }: { activeFolderId: string | undefined }) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { member } = useSession();
  const tree = useQuery({ ...folderTreeQueryOptions(), staleTime: 15_000 });
  const [edit, setEdit] = useState<FolderEdit | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const isVendor = member?.role === 'vendor';
  const folders = tree.data?.folders ?? [];
  /* The dialog reads the folder from the tree, which opening it reads again: its counts are current. */
  const deleting = flattenFolders(folders).find((f) => f.id === deletingId) ?? null;

  const actionsFor = (folder: Folder): MenuItem[] => [
    ...(folder.parentId === null ? [{ label: 'New sub-folder…', onSelect: () => setEdit({ kind: 'sub', parent: folder }) }] : []),
    { label: 'Rename or describe…', onSelect: () => setEdit({ kind: 'edit', folder }), disabled: !isVendor, disabledReason: VENDOR_ONLY },
    {
      label: 'Delete…',
      onSelect: () => {
        setDeletingId(folder.id);
        void tree.refetch();
      },
      disabled: !isVendor,
      disabledReason: VENDOR_ONLY,
      tone: 'danger',
    },
  ];

  const onDeleted = (folder: Folder) => {
    setDeletingId(null);
    if (activeFolderId && [folder.id, ...folder.children.map((c) => c.id)].includes(activeFolderId))
      navigate(hrefFor(searchParams, null), { replace: true });
  };

  return (
    <nav aria-labelledby="folders-heading" className="flex flex-col gap-2">
      <div className="flex items-center justify-between px-2">
        <h2 id="folders-heading" className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">
          Folders
        </h2>
        <button
          type="button"
          onClick={() => setEdit({ kind: 'new' })}
          className="rounded-md px-1.5 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-50"
        >
          New folder
        </button>
      </div>
      <ul className="space-y-0.5">
        <li>
          <Link
            to={hrefFor(searchParams, null)}
            aria-current={!activeFolderId ? 'page' : undefined}
            className={itemClass(!activeFolderId, 0)}
          >
            <svg
              viewBox="0 0 20 20"
              fill="currentColor"
              className={`size-4 shrink-0 ${!activeFolderId ? 'text-indigo-500' : 'text-zinc-400'}`}
              aria-hidden="true"
            >
              <path d="M10 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM3.465 14.493a1.23 1.23 0 0 0 .41 1.412A9.957 9.957 0 0 0 10 18c2.31 0 4.438-.784 6.131-2.1.43-.333.604-.903.408-1.41a7.002 7.002 0 0 0-13.074.003Z" />
            </svg>
            <span>All contacts</span>
          </Link>
        </li>
        {folders.map((folder) => (
          <FolderItem
            key={folder.id}
            folder={folder}
            depth={0}
            activeId={activeFolderId}
            searchParams={searchParams}
            actionsFor={actionsFor}
          />
        ))}
      </ul>
      {tree.isSuccess && (
        <Link
          to={hrefFor(searchParams, NO_FOLDER)}
          aria-current={activeFolderId === NO_FOLDER ? 'page' : undefined}
          aria-label={`Not in a folder, ${formatCount(tree.data.unfiledCount, 'contact', 'contacts')}`}
          className={itemClass(activeFolderId === NO_FOLDER, 0)}
        >
          <span>Not in a folder</span>
          <Count n={tree.data.unfiledCount} />
        </Link>
      )}
      {tree.isPending && (
        <div className="px-2 py-1">
          <Spinner className="size-4" label="Loading folders…" />
        </div>
      )}
      {tree.isError && (
        <div role="alert" className="px-2 text-xs text-red-700">
          <p>{errorMessage(tree.error)}</p>
          <button type="button" className="mt-1 font-medium text-indigo-700 underline" onClick={() => void tree.refetch()}>
            Retry
          </button>
        </div>
      )}
      {tree.isSuccess && folders.length === 0 && <p className="px-2 text-xs text-zinc-500">No folders yet.</p>}
      <FolderFormDialog edit={edit} onClose={() => setEdit(null)} />
      <DeleteFolderDialog folder={deleting} tree={folders} onClose={() => setDeletingId(null)} onDeleted={onDeleted} />
    </nav>
  );
}
