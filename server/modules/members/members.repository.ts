import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import { bumpCatalog } from '../../db/versions.js';
import { deleteSessionsOf, revokeTokensOf } from '../../auth/auth.repository.js';
import { failJobsOf } from '../bulk-jobs/bulk-jobs.repository.js';
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

/** The member's next personal token generation, counted in the store (two rotations at once give two generations). */
export async function nextTokenGeneration(db: Db, id: number, at: string): Promise<Member> {
  return db
    .updateTable('members')
    .set((eb) => ({ token_generation: eb('token_generation', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type MemberFilter = { orgId: number; ids?: number[]; parentOrSelf?: number; includeRemoved?: boolean };

export async function listMembers(db: Db, filter: MemberFilter, page: PageRequest) {
  let query = db.selectFrom('members').where('org_id', '=', filter.orgId);
  if (!filter.includeRemoved) query = query.where('removed_at', 'is', null);
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
 * Removes a member without losing anything it held or did: its contacts and its team move on (each moved contact gets
 * an audit record of the transfer); the row stays, marked removed, so its sessions, calls, notes and audit records
 * still name it; every way in ends with it (tokens revoked, a new token generation, web sessions ended).
 */
export async function removeMember(db: Db, member: Member, heirs: { contactsTo: number; teamTo: number }, at: string, actorId: number) {
  await transferAllContacts(db, { orgId: member.org_id, fromId: member.id, toId: heirs.contactsTo, at, actorId });
  await db.updateTable('members').set({ parent_id: heirs.teamTo, updated_at: at }).where('parent_id', '=', member.id).execute();
  await db
    .updateTable('members')
    .set((eb) => ({ removed_at: at, updated_at: at, token_generation: eb('token_generation', '+', 1) }))
    .where('id', '=', member.id)
    .execute();
  await revokeTokensOf(db, member.id, at);
  await deleteSessionsOf(db, member.id);
  await failJobsOf(db, member.id, 'The member who made this job was removed.', at);
}
