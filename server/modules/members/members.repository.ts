import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { moveCounts } from '../contacts/contact-counts.js';
import { bumpCatalog, nextVersion } from '../contacts/record-cache.js';
import type { Member, MemberUpdate, NewMember } from '../../db/schema.js';

const memberById = prepared<null, { id: number }, Member>('member by id', (db, _, p) => db.selectFrom('members').selectAll().where('id', '=', p.id));

export const findMemberById = async (db: Db, id: number): Promise<Member | undefined> => (await memberById(db, null, { id }))[0];

export const findMemberByUsername = (db: Db, username: string) =>
  db.selectFrom('members').selectAll().where('username', '=', username).executeTakeFirst();

export async function insertMember(db: Db, values: NewMember): Promise<Member> {
  return db.insertInto('members').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Contact records show their notes' authors by name: a change to a member's names changes its organisation's catalog. */
export async function updateMember(db: Db, id: number, values: MemberUpdate): Promise<Member> {
  const member = await db.updateTable('members').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  if (values.first_name !== undefined || values.last_name !== undefined || values.username !== undefined) await bumpCatalog(db, member.org_id);
  return member;
}

/** Ids of a member and everyone beneath it in the team tree, at any depth. */
const team = prepared<null, { memberId: number }, { id: number }>('team', (db, _, p) =>
  db
    .withRecursive('team(id)', (qb) =>
      qb
        .selectFrom('members')
        .select('id')
        .where('id', '=', p.memberId)
        .unionAll((q) => q.selectFrom('members').innerJoin('team', 'team.id', 'members.parent_id').select('members.id')),
    )
    .selectFrom('team')
    .select('id'));

export async function teamIds(db: Db, memberId: number): Promise<number[]> {
  return (await team(db, null, { memberId })).map((r) => r.id);
}

export type MemberFilter = { orgId: number; ids?: number[]; parentOrSelf?: number };

export async function listMembers(db: Db, filter: MemberFilter, page: { limit: number; offset: number }) {
  let query = db.selectFrom('members').where('org_id', '=', filter.orgId);
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [0]);
  if (filter.parentOrSelf !== undefined) {
    const id = filter.parentOrSelf;
    query = query.where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]));
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Removes a member without losing anything it held: its contacts and its team move to the member above it,
 * and every moved contact gets an audit record of the transfer.
 */
export async function deleteMemberInto(db: Db, member: Member, heirId: number, at: string, actorId: number) {
  await db
    .insertInto('contact_audit')
    .columns(['contact_id', 'member_id', 'action', 'data_type', 'old_value', 'new_value', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('contacts')
        .select((s) => [
          'id', s.val(actorId).as('member_id'), s.val('update').as('action'), s.val('transferred').as('data_type'),
          s.val(String(member.id)).as('old_value'), s.val(String(heirId)).as('new_value'), s.val(at).as('created_at'),
        ])
        .where('owner_id', '=', member.id),
    )
    .execute();
  await db.updateTable('contacts').set((eb) => ({ owner_id: heirId, version: nextVersion(eb), updated_at: at })).where('owner_id', '=', member.id).execute();
  await moveCounts(db, { orgId: member.org_id, ownerId: member.id }, { ownerId: heirId });
  await db.updateTable('members').set({ parent_id: heirId, updated_at: at }).where('parent_id', '=', member.id).execute();
  await db.deleteFrom('members').where('id', '=', member.id).execute();
  // Notes it wrote on contacts it did not own now show no author.
  await bumpCatalog(db, member.org_id);
}
