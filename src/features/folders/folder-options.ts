import { flattenFolders, type Folder } from '../../api/folders';

/** Folders as select options, a sub-folder named with its parent ("Prospects › Hot leads"); `except` leaves some out. */
export function folderOptions(tree: Folder[], except: Set<string> = new Set()) {
  const names = new Map(flattenFolders(tree).map((f) => [f.id, f.name]));
  return flattenFolders(tree)
    .filter((f) => !except.has(f.id))
    .map((f) => ({ value: f.id, label: f.parentId ? `${names.get(f.parentId) ?? ''} › ${f.name}` : f.name }));
}
