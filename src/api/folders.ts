import { queryOptions } from '@tanstack/react-query';
import { apiRequest, itemsByPosition } from '../lib/api-client';

type FolderWire = {
  id?: number | string;
  folder_id: number | string;
  folder_name: string;
  description?: string;
  _embedded?: { folders?: FolderWire[] | Record<string, FolderWire> };
};

type FoldersResponse = { http_status: number; status: 'success'; folders: Record<string, unknown> };

export type Folder = { id: string; name: string; description: string; parentId: string | null; children: Folder[] };

export const folderKeys = {
  all: ['folders'] as const,
  tree: () => [...folderKeys.all, 'tree'] as const,
};

function toFolder(wire: FolderWire, parentId: string | null): Folder {
  const id = String(wire.folder_id ?? wire.id);
  const embedded = wire._embedded?.folders;
  const children = Array.isArray(embedded) ? embedded : itemsByPosition<FolderWire>(embedded);
  return {
    id,
    name: wire.folder_name,
    description: wire.description ?? '',
    parentId,
    children: children.map((child) => toFolder(child, id)),
  };
}

/** Folders with their sub-folders (one level), in the server's order. */
export const foldersQueryOptions = () =>
  queryOptions({
    queryKey: folderKeys.tree(),
    queryFn: async ({ signal }) => {
      const body = await apiRequest<FoldersResponse>('/rest/1/folders', { signal, query: { structure: 1, page_size: 100 } });
      return itemsByPosition<FolderWire>(body.folders).map((f) => toFolder(f, null));
    },
    staleTime: 60_000,
  });

/** Every folder, sub-folders right after their parent. */
export function flattenFolders(tree: Folder[]): Folder[] {
  return tree.flatMap((f) => [f, ...f.children]);
}
