import type { Selectable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import type { TagsTable } from '../../db/schema.js';
import { CONTACT_CHUNK, nextTurn } from '../../db/chunks.js';
import { lockKeys } from '../../db/locks.js';
import { bumpCatalog } from '../../db/versions.js';
import { ActivityType, recordSetChange } from '../contacts/contact-history.repository.js';

export type Tag = Selectable<TagsTable>;

/** A page of the organisation's tag catalogue, by title (case-insensitive) then id. */
export function listTags(db: Db, orgId: number, page: PageRequest) {
  return paged(db.selectFrom('tags').where('org_id', '=', orgId), (q) => q.select(['id', 'title']).orderBy('title_lc').orderBy('id'), page);
}

/**
 * How many contacts hold each of these tags among those the default list shows the scope (not in the trash, not
 * archived), so a count equals the total of the list filtered by that tag: one grouped query for the lot.
 */
export async function contactCounts(db: Db, scope: Scope, tagIds: number[]): Promise<Map<number, number>> {
  if (!tagIds.length) return new Map();
  let query = db
    .selectFrom('contact_tags')
    .innerJoin('contacts', 'contacts.id', 'contact_tags.contact_id')
    .select((eb) => ['contact_tags.tag_id', eb.fn.countAll<number>().as('n')])
    .where('contact_tags.tag_id', 'in', tagIds)
    .where('contacts.org_id', '=', scope.orgId)
    .where('contacts.trashed', '=', 0)
    .where('contacts.archived', '=', 0);
  if (scope.kind === 'team') query = query.where('contacts.owner_id', 'in', scope.memberIds);
  const rows = await query.groupBy('contact_tags.tag_id').execute();
  return new Map(rows.map((r) => [r.tag_id, Number(r.n)]));
}

export const findTag = (db: Db, orgId: number, id: number): Promise<Tag | undefined> =>
  db.selectFrom('tags').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

/** Titles are unique in an organisation without regard to case. */
export const findTagByTitle = (db: Db, orgId: number, title: string): Promise<Tag | undefined> =>
  db.selectFrom('tags').selectAll().where('org_id', '=', orgId).where('title_lc', '=', title.toLowerCase()).executeTakeFirst();

export const insertTag = (tx: Db, orgId: number, title: string, at: string): Promise<Tag> =>
  tx
    .insertInto('tags')
    .values({ org_id: orgId, title, title_lc: title.toLowerCase(), created_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();

/**
 * The catalogue's tag with this title (compared without case), added when the organisation has none. A title not found
 * is looked for again under its key's lock (db/locks.ts): two contacts given one new tag at once make one tag (on
 * PostgreSQL the second insert had met the unique index: a 409).
 */
export async function ensureTag(tx: Db, orgId: number, title: string, at: string): Promise<Tag> {
  const found = await findTagByTitle(tx, orgId, title);
  if (found) return found;
  await lockKeys(tx, 'tag titles', [`${orgId}:${title.toLowerCase()}`]);
  return (await findTagByTitle(tx, orgId, title)) ?? insertTag(tx, orgId, title, at);
}

/** Records show their tags' titles: a rename changes its organisation's catalog. */
export async function renameTag(tx: Db, tag: Tag, title: string): Promise<Tag> {
  const renamed = await tx
    .updateTable('tags')
    .set({ title, title_lc: title.toLowerCase() })
    .where('id', '=', tag.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await bumpCatalog(tx, tag.org_id);
  return renamed;
}

/**
 * Deletes a tag: every contact holding it loses it, each with an audit record and an activity, then the tag goes.
 * Set-based, a chunk of contacts (by id) per statement; the transaction stays open throughout, so it is still one
 * change. Records show tags from outside the contact, so the catalog is raised instead of every contact's version.
 */
export async function deleteTag(tx: Db, tag: Tag, actorId: number, at: string, chunkSize = CONTACT_CHUNK): Promise<void> {
  for (;;) {
    const last = await tx
      .selectFrom('contact_tags')
      .select('contact_id')
      .where('tag_id', '=', tag.id)
      .orderBy('contact_id')
      .limit(1)
      .offset(chunkSize - 1)
      .executeTakeFirst();
    const chunk = tx
      .selectFrom('contact_tags')
      .where('tag_id', '=', tag.id)
      .$if(!!last, (q) => q.where('contact_id', '<=', last!.contact_id));
    await recordSetChange(
      tx,
      chunk.select((eb) => ['contact_id', eb.val(tag.title).as('old_value')]),
      {
        memberId: actorId,
        at,
        activity: ActivityType.tagsChanged,
        text: `Tag "${tag.title}" removed: the tag was deleted`,
        audit: { action: 'update', dataType: 'tag_removed' },
      },
    );
    await tx
      .deleteFrom('contact_tags')
      .where('tag_id', '=', tag.id)
      .$if(!!last, (q) => q.where('contact_id', '<=', last!.contact_id))
      .execute();
    if (!last) break;
    await nextTurn();
  }
  await tx.deleteFrom('tags').where('id', '=', tag.id).execute();
  await bumpCatalog(tx, tag.org_id);
}

/** A page of a contact's tags, by title as its record lists them. */
export const pageOfContactTags = (db: Db, contactId: number, page: PageRequest) =>
  paged(
    db.selectFrom('contact_tags').innerJoin('tags', 'tags.id', 'contact_tags.tag_id').where('contact_tags.contact_id', '=', contactId),
    (q) => q.select(['tags.id', 'tags.title']).orderBy('tags.title').orderBy('tags.id'),
    page,
  );

/** The tag if the contact holds it. */
export const contactTag = (db: Db, contactId: number, tagId: number): Promise<Tag | undefined> =>
  db
    .selectFrom('contact_tags')
    .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
    .selectAll('tags')
    .where('contact_tags.contact_id', '=', contactId)
    .where('contact_tags.tag_id', '=', tagId)
    .executeTakeFirst();

/** Answers whether the contact did not hold the tag before. */
export async function addContactTag(tx: Db, contactId: number, tagId: number): Promise<boolean> {
  const [result] = await tx
    .insertInto('contact_tags')
    .values({ contact_id: contactId, tag_id: tagId })
    .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
    .execute();
  return Number(result?.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeContactTag(tx: Db, contactId: number, tagId: number): Promise<void> {
  await tx.deleteFrom('contact_tags').where('contact_id', '=', contactId).where('tag_id', '=', tagId).execute();
}
