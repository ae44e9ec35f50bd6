import { type AuthContext, requireVendor } from '../../auth/access.js';
import type { listTagsQuery, TagRecord } from '../../contracts/tags.js';
import type { Db, Store } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import type { z } from 'zod';
import * as repo from './tags.repository.js';

export type TagsDeps = { store: Store };

/*
 * The organisation's tag catalogue. Every member may read it and add to it (adding a tag to a contact by a new
 * title adds it anyway); renaming and deleting change what every member's contacts show, so only the vendor may.
 */

/** Another organisation's tag answers exactly like one that does not exist. */
async function tagOf(db: Db, auth: AuthContext, id: number) {
  const tag = await repo.findTag(db, auth.scope.orgId, id);
  if (!tag) throw notFound(`There is no tag ${id}.`);
  return tag;
}

async function assertTitleFree(db: Db, auth: AuthContext, title: string, exceptId?: number) {
  const other = await repo.findTagByTitle(db, auth.scope.orgId, title);
  if (other && other.id !== exceptId)
    throw conflict(`A tag titled "${other.title}" already exists (titles that differ only in capitals count as the same).`);
}

export async function listTags(ctx: TagsDeps, auth: AuthContext, query: z.output<typeof listTagsQuery>) {
  const { rows, total } = await repo.listTags(ctx.store.db, auth.scope.orgId, query);
  if (!query.with_counts) return { rows: rows as TagRecord[], total };
  const counts = await repo.contactCounts(
    ctx.store.db,
    auth.scope,
    rows.map((t) => t.id),
  );
  return { rows: rows.map((t): TagRecord => ({ ...t, contact_count: counts.get(t.id) ?? 0 })), total };
}

export function createTag(ctx: TagsDeps, auth: AuthContext, title: string) {
  return ctx.store.write(async (tx) => {
    await assertTitleFree(tx, auth, title);
    return repo.insertTag(tx, auth.scope.orgId, title, now());
  });
}

/** A new title for the tag, on every contact that holds it. The same title in another case is a rename too. */
export function renameTag(ctx: TagsDeps, auth: AuthContext, id: number, title: string) {
  requireVendor(auth, 'rename tags');
  return ctx.store.write(async (tx) => {
    const tag = await tagOf(tx, auth, id);
    if (tag.title === title) return tag;
    await assertTitleFree(tx, auth, title, tag.id);
    return repo.renameTag(tx, tag, title);
  });
}

/** Deletes the tag and removes it from every contact that holds it, each recording the removal. */
export function deleteTag(ctx: TagsDeps, auth: AuthContext, id: number) {
  requireVendor(auth, 'delete tags');
  return ctx.store.write(async (tx) => repo.deleteTag(tx, await tagOf(tx, auth, id), auth.member.id, now()));
}
