import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, itemsByPosition } from '../lib/api-client';
import { contactKeys, folderKeys } from './query-keys';

type FolderWire = {
  id?: number | string;
  folder_id: number | string;
  folder_name: string;
  description?: string;
  contact_count?: number | string;
  _embedded?: { folders?: FolderWire[] | Record<string, FolderWire> };
};

type FoldersResponse = { http_status: number; status: 'success'; folders: Record<string, unknown> & { unfiled_count?: number | string } };

export type Folder = {
  id: string;
  name: string;
  description: string;
  parentId: string | null;
  children: Folder[];
  /** Active contacts in the caller's scope filed in this folder itself (not its sub-folders). */
  contactCount: number;
};

export type FolderTree = { folders: Folder[]; /** Active contacts in no folder. */ unfiledCount: number };

export { folderKeys };

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
    contactCount: Number(wire.contact_count ?? 0),
  };
}

/** Folders with their sub-folders (one level) and contact counts, in the server's order. */
export const folderTreeQueryOptions = () =>
  queryOptions({
    queryKey: folderKeys.tree(),
    queryFn: async ({ signal }): Promise<FolderTree> => {
      const body = await apiRequest<FoldersResponse>('/rest/1/folders', {
        signal,
        query: { structure: 1, with_counts: 1, page_size: 500 },
      });
      return {
        folders: itemsByPosition<FolderWire>(body.folders).map((f) => toFolder(f, null)),
        unfiledCount: Number(body.folders.unfiled_count ?? 0),
      };
    },
    staleTime: 60_000,
  });

/** The same tree as a plain list of top-level folders (for pickers and the grid). */
export const foldersQueryOptions = () => queryOptions({ ...folderTreeQueryOptions(), select: (tree: FolderTree) => tree.folders });

/** Every folder, sub-folders right after their parent. */
export function flattenFolders(tree: Folder[]): Folder[] {
  return tree.flatMap((f) => [f, ...f.children]);
}

type FolderBody = { name?: string; description?: string; parent_id?: string | number };

/** Folder changes show on every contact filed there (its folder name), so contacts are read again too. */
function useFolderMutation<V>(request: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: folderKeys.all }),
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      ]),
  });
}

export const useCreateFolder = () =>
  useFolderMutation((body: FolderBody & { name: string }) => apiRequest<unknown>('/rest/1/folders', { method: 'POST', body }));

export const useUpdateFolder = () =>
  useFolderMutation(({ id, ...body }: FolderBody & { id: string }) =>
    apiRequest<unknown>(`/rest/1/folders/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  );

/** Deletes a folder and its sub-folders; their contacts move to `moveTo` (null: no folder). */
export const useDeleteFolder = () =>
  useFolderMutation(({ id, moveTo }: { id: string; moveTo: string | null }) =>
    apiRequest<void>(`/rest/1/folders/${encodeURIComponent(id)}`, { method: 'DELETE', query: { move_folder_id: moveTo ?? undefined } }),
  );
