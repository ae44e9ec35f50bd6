import type { Db } from '../../db/database.js';

/* The tokens members make themselves (kind 'named'): listed with their member, revoked one by one. */

export type NamedTokenRow = {
  id: number;
  name: string | null;
  member_id: number;
  first_name: string;
  last_name: string;
  username: string;
  created_at: string;
  last_used_at: string | null;
};

/** Live named tokens of one member, or of a whole organisation (the vendor's list), newest first. */
export function listNamedTokens(db: Db, where: { memberId: number } | { orgId: number }): Promise<NamedTokenRow[]> {
  let q = db
    .selectFrom('access_tokens as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .select(['t.id', 't.name', 't.member_id', 'm.first_name', 'm.last_name', 'm.username', 't.created_at', 't.last_used_at'])
    .where('t.kind', '=', 'named')
    .where('t.revoked_at', 'is', null)
    .where('m.removed_at', 'is', null);
  q = 'memberId' in where ? q.where('t.member_id', '=', where.memberId) : q.where('m.org_id', '=', where.orgId);
  return q.orderBy('t.id', 'desc').execute();
}

export const findNamedToken = (db: Db, id: number) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('members as m', 'm.id', 't.member_id')
    .select(['t.id', 't.member_id', 'm.org_id'])
    .where('t.id', '=', id)
    .where('t.kind', '=', 'named')
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();

export async function revokeToken(tx: Db, id: number, at: string) {
  await tx.updateTable('access_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}
