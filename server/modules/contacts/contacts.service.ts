import { type AuthContext, type Scope, scopeIncludesMember } from '../../auth/access.js';
import { findMemberById, findMemberByUsername, teamIds } from '../../auth/auth.repository.js';
import type { RecordCache } from '../../lib/record-cache.js';
import type { CreatedContactRecord } from '../../contracts/contact-records.js';
import { type CreateContactBody, type ListContactsQuery, phoneDigits, type UpdateContactBody } from '../../contracts/contacts.js';
import type { Db, Store } from '../../db/database.js';
import type { Contact, Member } from '../../db/schema.js';
import { conflict, notFound, stale, unknownReference } from '../../lib/errors.js';
import { now, timestampOrZero } from '../../lib/time.js';
import { catalogVersion } from '../../db/versions.js';
import { findFolder } from '../folders/folders.repository.js';
import { addNote, addNotes, writeDetails, writeNewDetails } from './contact-details.repository.js';
import { ActivityType, recordChange, recordCreated } from './contact-history.repository.js';
import { auditChanges, columnChanges, type ContactInput, differing } from './contact-input.js';
import * as list from './contact-list.repository.js';
import * as records from './contact-records.repository.js';
import {
  deleteContactRows,
  detailKindsOf,
  indexNewContact,
  indexNewContacts,
  insertContact,
  insertContacts,
  setTrashed,
  updateContactRow,
} from './contact-rows.repository.js';
import * as repo from './contacts.repository.js';
import { contactRecords } from './contacts.serializer.js';
import { lockKeys } from '../../db/locks.js';

/** What the contact services need: the store, and this process's cache of serialized records. */
export type ContactsDeps = { store: Store; records: RecordCache<Buffer> };

export async function presentContacts(db: Db, contacts: records.RecordRow[]) {
  return contacts.length ? contactRecords(contacts, await records.loadDetails(db, contacts)) : [];
}

/**
 * These contacts' records, serialized, in the order given: each from the record cache when it holds the contact
 * at its version, the rest built and kept. A contact deleted since its version was read is left out. The catalog
 * version is the one the request was let in with (`AuthContext.catalogVersion`), or read now: either way before any
 * record is built.
 */
async function serializedRecords(ctx: ContactsDeps, auth: AuthContext, rows: records.PageRow[]): Promise<Buffer[]> {
  if (!rows.length) return [];
  const { db } = ctx.store;
  const catalog = auth.catalogVersion ?? (await catalogVersion(db, auth.scope.orgId));
  const kept = rows.map((row) => ctx.records.get(row.id, row.version, catalog));
  const missing = rows.filter((_, i) => kept[i] === undefined).map((row) => row.id);
  if (!missing.length) return kept as Buffer[];
  // Read after the versions above, so what is built is at least as new as the versions it is kept under.
  const fresh = await records.recordRows(db, missing);
  const built = new Map<number, Buffer>();
  (await presentContacts(db, fresh)).forEach((record, i) => {
    const { id, version } = fresh[i]!;
    const json = Buffer.from(JSON.stringify(record));
    ctx.records.set(id, version, catalog, json);
    built.set(id, json);
  });
  return rows.flatMap((row, i) => kept[i] ?? built.get(row.id) ?? []);
}

/** The caller's scope, or (owner filter) only that member of it; a member outside it is a 400 naming the field. */
export async function scopeOfOwner(db: Db, auth: AuthContext, ownerId: number | undefined, field: string): Promise<Scope> {
  if (ownerId === undefined) return auth.scope;
  const owner = await findMemberById(db, ownerId);
  if (!owner || !scopeIncludesMember(auth.scope, owner)) throw unknownReference(field, `${field} ${ownerId} is not a member of your team.`);
  return { kind: 'team', orgId: auth.scope.orgId, memberIds: [owner.id] };
}

export async function listContacts(ctx: ContactsDeps, auth: AuthContext, query: ListContactsQuery) {
  const scope = await scopeOfOwner(ctx.store.db, auth, query.owner_id, 'owner_id');
  const { rows, total } = await list.listContacts(ctx.store.db, scope, query);
  return { records: await serializedRecords(ctx, auth, rows), total };
}

/** The serialized record of a contact the caller may see; anything else is "not found". */
export async function contactRecord(ctx: ContactsDeps, auth: AuthContext, id: number): Promise<string> {
  return (await versionedRecord(ctx, auth, id)).json.toString();
}

/** The serialized record (its UTF-8 bytes) and the version it shows (its ETag: `etagOf`). */
export async function versionedRecord(ctx: ContactsDeps, auth: AuthContext, id: number): Promise<{ json: Buffer; version: number }> {
  const rows = await repo.findVisibleVersions(ctx.store.db, auth.scope, [id]);
  const [json] = await serializedRecords(ctx, auth, rows);
  if (json === undefined || !rows[0]) throw notFound(`There is no contact ${id}.`);
  return { json, version: rows[0].version };
}

/** A contact's ETag (extension): its id and version, which every change to what its record shows raises. */
export const etagOf = (id: number, version: number) => `"${id}.${version}"`;

/**
 * The caller's contacts (not in the trash) that share the e-mail address or phone number given, as records: what the
 * web app shows before creating a contact that would otherwise update one of them (the contract's duplicate rule).
 */
export async function matchingRecords(
  ctx: ContactsDeps,
  auth: AuthContext,
  email: string | undefined,
  phone: string | undefined,
): Promise<Buffer[]> {
  const ids = await repo.findMatches(
    ctx.store.db,
    auth.scope,
    email ? email.toLowerCase() : null,
    phone ? phoneDigits(phone) || null : null,
    10,
  );
  return serializedRecords(ctx, auth, await repo.findVisibleVersions(ctx.store.db, auth.scope, ids));
}

/** A contact the caller may see; anything else is "not found", whether it exists or not. */
export async function visibleContact(db: Db, scope: Scope, id: number): Promise<Contact> {
  const [contact] = await repo.findVisibleContacts(db, scope, [id]);
  if (!contact) throw notFound(`There is no contact ${id}.`);
  return contact;
}

async function assertFolder(db: Db, orgId: number, folderId: number | null | undefined) {
  if (!folderId) return;
  const folder = await findFolder(db, orgId, folderId);
  if (!folder) throw unknownReference('category_id', `category_id ${folderId} is not a folder of your organisation.`);
}

/** A member the caller may hand contacts to: itself, its team, or (for a vendor) anyone in the organisation. */
export async function memberInScope(db: Db, scope: Scope, field: string, ref: { id?: number; username?: string }) {
  const member = ref.id !== undefined ? await findMemberById(db, ref.id) : await findMemberByUsername(db, ref.username ?? '');
  if (!member || !scopeIncludesMember(scope, member))
    throw unknownReference(field, `${field} ${ref.id ?? ref.username} is not a member of your team.`);
  return member;
}

async function dedupeOwners(db: Db, ownerId: number, policy: number): Promise<number[] | null> {
  if (policy === 2) return null;
  return policy === 1 ? teamIds(db, ownerId) : [ownerId];
}

export type CreateResult = { record: CreatedContactRecord; status: 'created' | 'updated' | 'skipped' };

export async function createContact(ctx: Pick<ContactsDeps, 'store'>, auth: AuthContext, body: CreateContactBody): Promise<CreateResult> {
  return ctx.store.write((tx) => createContactIn(tx, auth, body));
}

/**
 * Creates a contact, or updates or skips its duplicate by the contract's rules, in the caller's transaction. `found`:
 * its duplicate, found already in this transaction (`findDuplicate`, by the caller), so it is not looked for again.
 */
export async function createContactIn(
  tx: Db,
  auth: AuthContext,
  body: CreateContactBody,
  found?: Contact,
): Promise<CreateResult & { id: number }> {
  // Checked inside the transaction: a folder or owner deleted meanwhile cannot slip past them.
  const owner =
    body.owner_id !== undefined || body.owner_username
      ? await memberInScope(tx, auth.scope, body.owner_id !== undefined ? 'owner_id' : 'owner_username', {
          id: body.owner_id,
          username: body.owner_username,
        })
      : auth.member;
  await assertFolder(tx, auth.scope.orgId, body.category_id);
  const existing = body.allow_duplicates ? undefined : (found ?? (await findDuplicate(tx, owner.org_id, owner.id, body)));
  if (existing) {
    if (!(await repo.findVisibleContacts(tx, auth.scope, [existing.id])).length) {
      throw conflict('A contact with this e-mail address or phone number already exists in your organisation, outside your team.');
    }
    if (body.on_duplicate === 'skip') return { id: existing.id, record: createdRecord(existing, body, 'skipped'), status: 'skipped' };
    const updated = await applyUpdate(tx, auth, existing, body, now());
    return { id: updated.id, record: createdRecord(updated, body, 'updated'), status: 'updated' };
  }
  const at = now();
  const contact = await insertContact(tx, newContactRow(body, owner, at));
  await writeDetails(tx, { contact, body, at, isNew: true });
  await addNote(tx, contact.id, body.notes, auth.member.id, at);
  await indexNewContact(tx, contact);
  await recordChange(tx, {
    contactIds: [contact.id],
    memberId: auth.member.id,
    at,
    activity: ActivityType.created,
    text: 'Contact created',
    audit: [{ action: 'create', dataType: 'contact', new: String(contact.id) }],
  });
  return { id: contact.id, record: createdRecord(contact, body, 'created'), status: 'created' };
}

/** The contact row a create body makes, owned by `owner`, made `at`. */
const newContactRow = (body: CreateContactBody, owner: Pick<Member, 'org_id' | 'id'>, at: string) => ({
  ...columnChanges(body),
  org_id: owner.org_id,
  owner_id: owner.id,
  source_id: body.source_id ?? null,
  detail_kinds: detailKindsOf(body),
  created_at: at,
  updated_at: at,
});

/**
 * Creates contacts as `createContactIn` creates each (same rows, counts, search terms, activities and audit), a
 * multi-row statement per table for all of them: an import's chunk. The caller has checked duplicates (in the store and
 * among the bodies) and holds their keys; each body creates its own contact, owned by the caller. Answers the contacts
 * in the order of the bodies.
 */
export async function createContactsBatch(tx: Db, auth: AuthContext, bodies: CreateContactBody[]): Promise<Contact[]> {
  if (!bodies.length) return [];
  if (bodies.some((b) => b.owner_id !== undefined || b.owner_username || !b.allow_duplicates))
    throw new Error('A batch of new contacts is owned by its caller and checked for duplicates before.');
  for (const folderId of new Set(bodies.map((b) => b.category_id))) await assertFolder(tx, auth.scope.orgId, folderId);
  const at = now();
  const owner = auth.member;
  const contacts = await insertContacts(
    tx,
    bodies.map((body) => newContactRow(body, owner, at)),
  );
  await writeNewDetails(
    tx,
    contacts.map((contact, i) => ({ contact, body: bodies[i]! })),
    at,
  );
  await addNotes(
    tx,
    contacts.map((c, i) => ({ contactId: c.id, body: bodies[i]!.notes })),
    auth.member.id,
    at,
  );
  await indexNewContacts(tx, contacts);
  await recordCreated(tx, { contactIds: contacts.map((c) => c.id), memberId: auth.member.id, at });
  return contacts;
}

/** What a body's duplicate check looks for: its e-mail address (any case) and its number's digits, as it asks. */
export const duplicateKeysOf = (body: CreateContactBody) => ({
  email: body.duplicate_checks.email && body.email ? body.email.toLowerCase() : null,
  phone: body.duplicate_checks.phone && body.phone ? phoneDigits(body.phone) : null,
});

/** The contact `body` would duplicate under its checks and policy (its keys locked until the commit), if any. */
export async function findDuplicate(tx: Db, orgId: number, ownerId: number, body: CreateContactBody) {
  const { email, phone } = duplicateKeysOf(body);
  if (!email && !phone) return undefined;
  // The check and the insert that follows it hold per address and number (docs/store.md): on PostgreSQL two creations
  // of one address at once would otherwise both find no duplicate and both insert. SQLite's one writer needs no lock.
  await lockKeys(tx, 'contact duplicate', [...(email ? [`${orgId}:e:${email}`] : []), ...(phone ? [`${orgId}:p:${phone}`] : [])]);
  return repo.findDuplicate(tx, orgId, await dedupeOwners(tx, ownerId, body.duplicate_scrubbing_policy), email, phone);
}

function createdRecord(contact: Contact, body: CreateContactBody, action: CreatedContactRecord['duplicate_action']): CreatedContactRecord {
  return {
    contact_user_id: String(contact.id),
    member_id: String(contact.owner_id),
    contact_owner_id: String(contact.owner_id),
    first_name: contact.first_name,
    last_name: contact.last_name,
    email_address: contact.email,
    phone: contact.phone,
    phone_label: body.phone_label ?? '',
    date_added: timestampOrZero(contact.created_at),
    notes: body.notes || null,
    duplicate_action: action,
  };
}

/**
 * Updates a contact. With a precondition (If-Match, extension) the update applies only to the version the caller
 * read: a contact changed since is a 409 that changes nothing. Without one, the last update wins, as the contract has it.
 */
export async function updateContact(
  ctx: Pick<ContactsDeps, 'store'>,
  auth: AuthContext,
  id: number,
  body: UpdateContactBody,
  ifMatch?: string[],
): Promise<Contact> {
  return ctx.store.write(async (tx) => {
    const contact = await visibleContact(tx, auth.scope, id);
    if (ifMatch && !ifMatch.includes('*') && !ifMatch.includes(etagOf(contact.id, contact.version))) {
      throw stale(
        'If-Match',
        'The contact has changed since you read it. Nothing was saved: read it again, then apply your changes to what it holds now.',
      );
    }
    return applyUpdate(tx, auth, contact, body, now());
  });
}

/** Applies a body to a contact: its row, its details, their audit and activity. A body that changes nothing records nothing. */
export async function applyUpdate(
  tx: Db,
  auth: AuthContext,
  contact: Contact,
  body: ContactInput & { transfer_to_user_id?: number },
  at: string,
) {
  await assertFolder(tx, auth.scope.orgId, body.category_id);
  const wanted = columnChanges(body);
  if (body.transfer_to_user_id !== undefined) {
    wanted.owner_id = (await memberInScope(tx, auth.scope, 'transfer_to_user_id', { id: body.transfer_to_user_id })).id;
  }
  const changes = differing(contact, wanted);
  const detailsChanged = await writeDetails(tx, { contact, body, at, isNew: false });
  const noteAdded = await addNote(tx, contact.id, body.notes, auth.member.id, at);
  if (!Object.keys(changes).length && !detailsChanged && !noteAdded) return contact;
  const updated = await updateContactRow(tx, contact, { changes, at, detailKinds: detailKindsOf(body), searchChanged: detailsChanged });
  const audit = auditChanges(contact, changes);
  const moved = audit.find((a) => a.dataType === 'moved');
  const transferred = audit.find((a) => a.dataType === 'transferred');
  const [activity, text] = transferred
    ? [ActivityType.transferred, `Contact transferred from member ${transferred.old} to member ${transferred.new}`]
    : moved
      ? [ActivityType.moved, `Contact moved from folder ${moved.old} to folder ${moved.new}`]
      : [ActivityType.updated, 'Contact updated'];
  if (Object.keys(changes).length || detailsChanged)
    await recordChange(tx, { contactIds: [contact.id], memberId: auth.member.id, at, activity, text, audit });
  if (noteAdded) {
    await recordChange(tx, {
      contactIds: [contact.id],
      memberId: auth.member.id,
      at,
      activity: ActivityType.noteAdded,
      text: 'Note added',
      audit: [],
    });
  }
  return updated;
}

/** Moves contacts to the trash, or deletes them for good. Every id must be one the caller may see. */
export async function deleteContacts(ctx: Pick<ContactsDeps, 'store'>, auth: AuthContext, ids: number[], permanent: boolean) {
  const unique = [...new Set(ids)];
  await ctx.store.write(async (tx) => {
    const visible = await repo.findVisibleContacts(tx, auth.scope, unique);
    const missing = unique.filter((id) => !visible.some((c) => c.id === id));
    if (missing.length) throw notFound(`There is no contact ${missing.join(', ')}. Nothing was deleted.`);
    const at = now();
    if (permanent) {
      await recordChange(tx, {
        contactIds: unique,
        memberId: auth.member.id,
        at,
        activity: ActivityType.deleted,
        text: 'Contact deleted permanently',
        audit: [{ action: 'delete', dataType: 'contact' }],
      });
      await deleteContactRows(tx, visible);
      return;
    }
    const trashing = visible.filter((c) => !c.trashed);
    await setTrashed(tx, trashing, true, at);
    await recordChange(tx, {
      contactIds: trashing.map((c) => c.id),
      memberId: auth.member.id,
      at,
      activity: ActivityType.trashed,
      text: 'Contact moved to the trash',
      audit: [{ action: 'trash', dataType: 'trashed', old: '0', new: '1' }],
    });
  });
}

/** Takes a contact out of the trash (an extension). One that is not in the trash is left as it is, and nothing recorded. */
export async function restoreContact(ctx: Pick<ContactsDeps, 'store'>, auth: AuthContext, id: number): Promise<void> {
  await ctx.store.write(async (tx) => {
    const contact = await visibleContact(tx, auth.scope, id);
    if (!contact.trashed) return;
    const at = now();
    await setTrashed(tx, [contact], false, at);
    await recordChange(tx, {
      contactIds: [contact.id],
      memberId: auth.member.id,
      at,
      activity: ActivityType.restored,
      text: 'Contact restored from the trash',
      audit: [{ action: 'restore', dataType: 'trashed', old: '1', new: '0' }],
    });
  });
}
