import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { foldersQueryOptions, type Folder } from '../../api/folders';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';

function hrefFor(current: URLSearchParams, folderId: string | null): string {
  const next = new URLSearchParams(current);
  next.delete('page');
  if (folderId) next.set('folder', folderId);
  else next.delete('folder');
  const qs = next.toString();
  return qs ? `?${qs}` : '?';
}

const itemClass = (active: boolean, depth: number) =>
  `flex w-full items-center gap-2 rounded-md py-1.5 pr-2 text-sm ${depth > 0 ? 'pl-8' : 'pl-2'} ${
    active ? 'bg-indigo-50 font-medium text-indigo-700' : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900'
  }`;

function FolderIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className={`size-4 shrink-0 ${open ? 'text-indigo-500' : 'text-zinc-400'}`} aria-hidden="true">
      <path d="M3.75 3A1.75 1.75 0 0 0 2 4.75v10.5c0 .966.784 1.75 1.75 1.75h12.5A1.75 1.75 0 0 0 18 15.25v-8.5A1.75 1.75 0 0 0 16.25 5h-5.69l-1.28-1.28A2.5 2.5 0 0 0 7.51 3H3.75Z" />
    </svg>
  );
}

function FolderItem({ folder, depth, activeId, searchParams }: { folder: Folder; depth: number; activeId: string | undefined; searchParams: URLSearchParams }) {
  const active = folder.id === activeId;
  return (
    <li>
      <Link
        to={hrefFor(searchParams, folder.id)}
        aria-current={active ? 'page' : undefined}
        className={itemClass(active, depth)}
        title={folder.description || undefined}
      >
        <FolderIcon open={active} />
        <span className="truncate">{folder.name}</span>
      </Link>
      {folder.children.length > 0 && (
        <ul className="mt-0.5 space-y-0.5">
          {folder.children.map((child) => (
            <FolderItem key={child.id} folder={child} depth={depth + 1} activeId={activeId} searchParams={searchParams} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** "All contacts" plus the folder tree; the chosen folder filters the grid through ?folder=. */
export function FolderPanel({ activeFolderId }: { activeFolderId: string | undefined }) {
  const [searchParams] = useSearchParams();
  const folders = useQuery(foldersQueryOptions());

  return (
    <nav aria-labelledby="folders-heading" className="flex flex-col gap-2">
      <h2 id="folders-heading" className="px-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Folders
      </h2>
      <ul className="space-y-0.5">
        <li>
          <Link
            to={hrefFor(searchParams, null)}
            aria-current={!activeFolderId ? 'page' : undefined}
            className={itemClass(!activeFolderId, 0)}
          >
            <svg viewBox="0 0 20 20" fill="currentColor" className={`size-4 shrink-0 ${!activeFolderId ? 'text-indigo-500' : 'text-zinc-400'}`} aria-hidden="true">
              <path d="M10 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM3.465 14.493a1.23 1.23 0 0 0 .41 1.412A9.957 9.957 0 0 0 10 18c2.31 0 4.438-.784 6.131-2.1.43-.333.604-.903.408-1.41a7.002 7.002 0 0 0-13.074.003Z" />
            </svg>
            <span>All contacts</span>
          </Link>
        </li>
        {folders.data?.map((folder) => (
          <FolderItem key={folder.id} folder={folder} depth={0} activeId={activeFolderId} searchParams={searchParams} />
        ))}
      </ul>
      {folders.isPending && (
        <div className="px-2 py-1">
          <Spinner className="size-4" label="Loading folders…" />
        </div>
      )}
      {folders.isError && (
        <div role="alert" className="px-2 text-xs text-red-700">
          <p>{errorMessage(folders.error)}</p>
          <button type="button" className="mt-1 font-medium text-indigo-700 underline" onClick={() => void folders.refetch()}>
            Retry
          </button>
        </div>
      )}
      {folders.isSuccess && folders.data.length === 0 && <p className="px-2 text-xs text-zinc-500">No folders yet.</p>}
    </nav>
  );
}
