import type { z } from 'zod';
import { type AuthContext, requireVendor } from '../../auth/access.js';
import type { createFolderBody, deleteFolderQuery, listFoldersQuery, updateFolderBody } from '../../contracts/folders.js';
import type { Db, Store } from '../../db/database.js';
import type { Folder } from '../../db/schema.js';
import { conflict, invalidField, notFound, unknownReference } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './folders.repository.js';

export type FoldersDeps = { store: Store };

/** Another organisation's folder answers exactly like one that does not exist. */
async function folderOf(db: Db, auth: AuthContext, id: number): Promise<Folder> {
  const folder = await repo.findFolder(db, auth.member.org_id, id);
  if (!folder) throw notFound(`There is no folder ${id}.`);
  return folder;
}

export async function listFolders(ctx: FoldersDeps, auth: AuthContext, query: z.output<typeof listFoldersQuery>) {
  const { rows, total } = await repo.listFolders(ctx.store.db, auth.member.org_id, query.structure, query);
  const subFolders = query.structure
    ? await repo.subFoldersOf(
        ctx.store.db,
        rows.map((f) => f.id),
      )
    : [];
  return { rows, total, childrenOf: (folder: Folder) => subFolders.filter((s) => s.parent_id === folder.id) };
}

/** Only one level of sub-folders: a parent must be a top-level folder of the caller's organisation. */
async function assertParent(db: Db, auth: AuthContext, parentId: number) {
  const parent = await repo.findFolder(db, auth.member.org_id, parentId);
  if (!parent) throw unknownReference('parent_id', `parent_id ${parentId} is not a folder of your organisation.`);
  if (parent.parent_id !== null) {
    throw invalidField('parent_id', `parent_id ${parentId} is itself a sub-folder; only one level of sub-folders exists.`);
  }
}

async function assertNameFree(db: Db, auth: AuthContext, name: string, parentId: number | null, exceptId?: number) {
  const taken = (await repo.siblingNames(db, auth.member.org_id, parentId, exceptId)).some(
    (other) => other.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw conflict(`A folder named "${name}" already exists ${parentId === null ? 'at the top level' : `in folder ${parentId}`}.`);
}

export async function createFolder(ctx: FoldersDeps, auth: AuthContext, body: z.output<typeof createFolderBody>) {
  const parentId = body.parent_id ?? null;
  return ctx.store.write(async (tx) => {
    if (parentId !== null) await assertParent(tx, auth, parentId);
    await assertNameFree(tx, auth, body.name, parentId);
    const at = now();
    return repo.insertFolder(tx, {
      org_id: auth.member.org_id,
      parent_id: parentId,
      name: body.name,
      description: body.description,
      created_by: auth.member.id,
      created_at: at,
      updated_at: at,
    });
  });
}

export async function updateFolder(ctx: FoldersDeps, auth: AuthContext, id: number, body: z.output<typeof updateFolderBody>) {
  requireVendor(auth, 'rename or move folders');
  return ctx.store.write(async (tx) => {
    const folder = await folderOf(tx, auth, id);
    const parentId = body.parent_id === undefined ? folder.parent_id : body.parent_id;
    const name = body.name ?? folder.name;
    if (parentId !== folder.parent_id && parentId !== null) {
      if (parentId === folder.id) throw invalidField('parent_id', 'A folder cannot be its own parent.');
      await assertParent(tx, auth, parentId);
      if ((await repo.subFoldersOf(tx, [folder.id])).length) {
        throw invalidField(
          'parent_id',
          `Folder ${id} has sub-folders, so it cannot become a sub-folder; only one level of sub-folders exists.`,
        );
      }
    }
    if (name !== folder.name || parentId !== folder.parent_id) await assertNameFree(tx, auth, name, parentId, folder.id);
    return repo.updateFolder(tx, folder.id, { name, description: body.description, parent_id: parentId, updated_at: now() });
  });
}

/** Deletes a folder and its sub-folders; their contacts move to move_folder_id, or to no folder. */
export async function deleteFolder(ctx: FoldersDeps, auth: AuthContext, id: number, query: z.output<typeof deleteFolderQuery>) {
  requireVendor(auth, 'delete folders');
  const targetId = query.move_folder_id ?? null;
  await ctx.store.write(async (tx) => {
    const folder = await folderOf(tx, auth, id);
    const subFolderIds = (await repo.subFoldersOf(tx, [folder.id])).map((f) => f.id);
    if (targetId !== null) {
      if (targetId === folder.id || subFolderIds.includes(targetId)) {
        throw invalidField('move_folder_id', `move_folder_id ${targetId} is being deleted with folder ${id}; choose another folder.`);
      }
      if (!(await repo.findFolder(tx, auth.member.org_id, targetId))) {
        throw unknownReference('move_folder_id', `move_folder_id ${targetId} is not a folder of your organisation.`);
      }
    }
    await repo.deleteFoldersInto(tx, {
      orgId: auth.member.org_id,
      folderId: folder.id,
      subFolderIds,
      targetId,
      at: now(),
      actorId: auth.member.id,
    });
  });
}
