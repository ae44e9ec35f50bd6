import type { FolderNode, FolderRecord } from '../../contracts/folders.js';
import type { Folder } from '../../db/schema.js';

/** Contacts per folder id, when the caller asked for counts. */
export type FolderCounts = Map<number, number> | undefined;
const countOf = (folder: Folder, counts: FolderCounts) => (counts ? { contact_count: counts.get(folder.id) ?? 0 } : {});

export function toFolderRecord(folder: Folder, counts?: FolderCounts): FolderRecord {
  return {
    folder_id: String(folder.id),
    folder_name: folder.name,
    description: folder.description,
    parent_id: String(folder.parent_id ?? 0),
    ...countOf(folder, counts),
  };
}

/** The structure=1 shape: a top-level folder with its sub-folders under _embedded (only when it has some). */
export function toFolderNode(folder: Folder, children: Folder[] = [], counts?: FolderCounts): FolderNode {
  const id = String(folder.id);
  return {
    id,
    folder_id: id,
    folder_name: folder.name,
    description: folder.description,
    _links: { self: { href: `/rest/1/folders/${id}` } },
    ...(children.length ? { _embedded: { folders: children.map((c) => toFolderNode(c, [], counts)) } } : {}),
    ...countOf(folder, counts),
  };
}

/** The contract keys folders by position ('0', '1', ...) inside the wrapper, beside the paging fields. */
export const keyedByPosition = <T>(items: T[]): Record<string, T> => Object.fromEntries(items.map((item, i) => [String(i), item]));
