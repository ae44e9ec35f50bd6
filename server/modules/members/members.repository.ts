import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import { bumpCatalog } from '../../db/versions.js';
import { transferAllContacts } from '../contacts/contact-rows.repository.js';
import type { Member, MemberUpdate, NewMember } from '../../db/schema.js';

export async function insertMember(db: Db, values: NewMember): Promise<Member> {
  return db.insertInto('members').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Contact records show their notes' authors by name: a change to a member's names changes its organisation's catalog. */
export async function updateMember(db: Db, id: number, values: MemberUpdate): Promise<Member> {
  const member = await db.updateTable('members').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  if (values.first_name !== undefined || values.last_name !== undefined || values.username !== undefined)
    await bumpCatalog(db, member.org_id);
  return member;
}

export type MemberFilter = { orgId: number; ids?: number[]; parentOrSelf?: number };

export async function listMembers(db: Db, filter: MemberFilter, page: PageRequest) {
  let query = db.selectFrom('members').where('org_id', '=', filter.orgId);
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [0]);
  if (filter.parentOrSelf !== undefined) {
    const id = filter.parentOrSelf;
    query = query.where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]));
  }
  return paged(query, (q) => q.selectAll().orderBy('id'), page);
}

export async function insertOrganisation(db: Db, name: string, callbackSecret: string, at: string): Promise<number> {
  return (
    await db
      .insertInto('organisations')
      .values({ name, callback_secret: callbackSecret, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/**
 * Removes a member without losing anything it held: its contacts and its team move to the member above it,
 * and every moved contact gets an audit record of the transfer.
 */
export async function deleteMemberInto(db: Db, member: Member, heirs: { contactsTo: number; teamTo: number }, at: string, actorId: number) {
  await transferAllContacts(db, { orgId: member.org_id, fromId: member.id, toId: heirs.contactsTo, at, actorId });
  await db.updateTable('members').set({ parent_id: heirs.teamTo, updated_at: at }).where('parent_id', '=', member.id).execute();
  await db.deleteFrom('members').where('id', '=', member.id).execute();
  // Notes it wrote on contacts it did not own now show no author.
  await bumpCatalog(db, member.org_id);
}
