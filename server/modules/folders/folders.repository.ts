import type { Db } from '../../db/database.js';
import type { Folder, FoldersTable } from '../../db/schema.js';
import type { Insertable, Updateable } from 'kysely';
import { paged, type PageRequest } from '../../db/paging.js';
import { bumpCatalog } from '../../db/versions.js';
import { moveFolderContents } from '../contacts/contact-rows.repository.js';

export const findFolder = (db: Db, orgId: number, id: number) =>
  db.selectFrom('folders').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

/** A page of the organisation's folders (all of them, or only the top level), by name then id. */
export async function listFolders(db: Db, orgId: number, topLevelOnly: boolean, page: PageRequest) {
  let query = db.selectFrom('folders').where('org_id', '=', orgId);
  if (topLevelOnly) query = query.where('parent_id', 'is', null);
  return paged(
    query,
    (q) =>
      q
        .selectAll()
        .orderBy((eb) => eb.fn('lower', ['name']))
        .orderBy('name')
        .orderBy('id'),
    page,
  );
}

export async function subFoldersOf(db: Db, parentIds: number[]): Promise<Folder[]> {
  if (!parentIds.length) return [];
  return db
    .selectFrom('folders')
    .selectAll()
    .where('parent_id', 'in', parentIds)
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Names of the folders beside which a folder would sit (same parent), leaving out the folder itself. */
export async function siblingNames(db: Db, orgId: number, parentId: number | null, exceptId?: number): Promise<string[]> {
  let query = db.selectFrom('folders').select('name').where('org_id', '=', orgId);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.execute()).map((r) => r.name);
}

export const insertFolder = (db: Db, values: Insertable<FoldersTable>) =>
  db.insertInto('folders').values(values).returningAll().executeTakeFirstOrThrow();

/** Contact records show their folder's name and description: a change to a folder changes its organisation's catalog. */
export async function updateFolder(db: Db, id: number, values: Updateable<FoldersTable>) {
  const folder = await db.updateTable('folders').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  await bumpCatalog(db, folder.org_id);
  return folder;
}

export type FolderRemoval = {
  orgId: number;
  folderId: number;
  subFolderIds: number[];
  targetId: number | null;
  at: string;
  actorId: number;
};

/**
 * Deletes folders after moving their contacts to the target (or to no folder), set-based: one audit row per
 * moved contact ('moved', old folder id to new folder id or '0'), one update, then the folders, sub-folders first.
 */
export async function deleteFoldersInto(db: Db, r: FolderRemoval) {
  await moveFolderContents(db, {
    orgId: r.orgId,
    folderIds: [r.folderId, ...r.subFolderIds],
    targetId: r.targetId,
    at: r.at,
    actorId: r.actorId,
  });
  if (r.subFolderIds.length) await db.deleteFrom('folders').where('id', 'in', r.subFolderIds).execute();
  await db.deleteFrom('folders').where('id', '=', r.folderId).execute();
}
