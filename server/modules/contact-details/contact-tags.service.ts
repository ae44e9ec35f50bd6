import type { AuthContext } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { notFound } from '../../lib/errors.js';
import { ActivityType, type AuditEntry } from '../contacts/contact-history.repository.js';
import { DETAIL_KINDS } from '../contacts/contact-rows.repository.js';
import { visibleContact } from '../contacts/contacts.service.js';
import * as tags from '../tags/tags.repository.js';
import { changeContactDetails, type DetailChange, type DetailsDeps } from './detail-change.js';

/* A contact's tags, named by title: a title the organisation has not used joins its catalogue. */

const added = (tag: tags.Tag): AuditEntry => ({ action: 'update', dataType: 'tag_added', new: tag.title });
const removed = (tag: tags.Tag): AuditEntry => ({ action: 'update', dataType: 'tag_removed', old: tag.title });
const tagChange = (result: tags.Tag, audit: AuditEntry[], text: string): DetailChange<tags.Tag> => ({
  result,
  audit,
  activity: ActivityType.tagsChanged,
  text,
  detailKinds: DETAIL_KINDS.tags,
});

export async function listContactTags(ctx: DetailsDeps, auth: AuthContext, contactId: number, page: PageRequest) {
  await visibleContact(ctx.store.db, auth.scope, contactId);
  return tags.pageOfContactTags(ctx.store.db, contactId, page);
}

async function heldTag(db: Db, contactId: number, tagId: number) {
  const tag = await tags.contactTag(db, contactId, tagId);
  if (!tag) throw notFound(`Contact ${contactId} has no tag ${tagId}.`);
  return tag;
}

export async function getContactTag(ctx: DetailsDeps, auth: AuthContext, contactId: number, tagId: number) {
  await visibleContact(ctx.store.db, auth.scope, contactId);
  return heldTag(ctx.store.db, contactId, tagId);
}

/** Gives the contact the tag; one it holds already changes nothing. */
export function addContactTag(ctx: DetailsDeps, auth: AuthContext, contactId: number, title: string) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact, at) => {
    const tag = await tags.ensureTag(tx, contact.org_id, title, at);
    const isNew = await tags.addContactTag(tx, contact.id, tag.id);
    return tagChange(tag, isNew ? [added(tag)] : [], `Tag "${tag.title}" added`);
  });
}

/**
 * PUT on a contact's tag: the contact holds the tag with the new title in place of the old one. The catalogue's
 * tag keeps its title (other contacts hold it too); renaming it for everyone is PUT /rest/1/tags/{id}.
 */
export function replaceContactTag(ctx: DetailsDeps, auth: AuthContext, contactId: number, tagId: number, title: string) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact, at) => {
    const old = await heldTag(tx, contact.id, tagId);
    const tag = await tags.ensureTag(tx, contact.org_id, title, at);
    if (tag.id === old.id) return tagChange(tag, [], '');
    await tags.removeContactTag(tx, contact.id, old.id);
    const isNew = await tags.addContactTag(tx, contact.id, tag.id);
    return tagChange(tag, [removed(old), ...(isNew ? [added(tag)] : [])], `Tag "${old.title}" replaced by "${tag.title}"`);
  });
}

export function removeContactTag(ctx: DetailsDeps, auth: AuthContext, contactId: number, tagId: number) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    const tag = await heldTag(tx, contact.id, tagId);
    await tags.removeContactTag(tx, contact.id, tag.id);
    return tagChange(tag, [removed(tag)], `Tag "${tag.title}" removed`);
  });
}
