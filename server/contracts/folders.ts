/*
 * Folders (the contract's contact "category"): an organisation-wide catalogue with one level of sub-folders.
 * Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, intLike, optionalIdLike, query, text } from './common.js';

export const FOLDER_NAME_MAX = 100;
export const FOLDER_DESCRIPTION_MAX = 1000;

const name = text(FOLDER_NAME_MAX).pipe(z.string().min(1, { error: 'must not be empty' }));
const description = text(FOLDER_DESCRIPTION_MAX);
/** 0 or '' puts the folder at the top level. */
const parentId = optionalIdLike;

const PAGE_SIZE_MAX = 500;
const pageSizeRange = { error: `must be from 1 to ${PAGE_SIZE_MAX}` };

export const listFoldersQuery = z.object({
  structure: query.flag,
  /* Extension: each folder's active contacts in the caller's scope, and the count in no folder. */
  with_counts: query.flag,
  page: query.value(intLike.pipe(z.number().int().min(1, { error: 'must be 1 or more' })).default(1)),
  page_size: query.value(intLike.pipe(z.number().int().min(1, pageSizeRange).max(PAGE_SIZE_MAX, pageSizeRange)).default(100)),
});

export const createFolderBody = z.object({
  name,
  description: description.default(''),
  parent_id: parentId.optional(),
});
export type CreateFolderBody = z.input<typeof createFolderBody>;

export const updateFolderBody = z.object({
  name: name.optional(),
  description: description.optional(),
  parent_id: parentId.optional(),
});
export type UpdateFolderBody = z.input<typeof updateFolderBody>;

export const folderIdParam = z.object({ folder_id: idLike });

export const deleteFolderQuery = z.object({ move_folder_id: query.optionalId });

/** A folder in plain listings and in POST/PUT answers; description and parent_id ('0' = top level) are extensions. */
export type FolderRecord = { folder_id: string; folder_name: string; description: string; parent_id: string; contact_count?: number };

/** A folder with structure=1: sub-folders nest under _embedded. */
export type FolderNode = {
  id: string;
  folder_id: string;
  folder_name: string;
  description: string;
  _links: { self: { href: string } };
  _embedded?: { folders: FolderNode[] };
  contact_count?: number;
};
