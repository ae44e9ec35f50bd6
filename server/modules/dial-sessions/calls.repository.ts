import type { Insertable, Updateable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit, paged, type PageRequest } from '../../db/paging.js';
import type { Call, CallsTable } from '../../db/schema.js';

export const insertCall = (tx: Db, values: Insertable<CallsTable>) =>
  tx.insertInto('calls').values(values).returningAll().executeTakeFirstOrThrow();

export const updateCall = (tx: Db, id: number, changes: Updateable<CallsTable>) =>
  tx.updateTable('calls').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export const findCall = (db: Db, id: number): Promise<Call | undefined> =>
  db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();

/** The call of a queue position (a contact is called at most once in a session). */
export const callAt = (db: Db, sessionId: number, position: number): Promise<Call | undefined> =>
  db
    .selectFrom('calls')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('position', '=', position)
    .orderBy('id', 'desc')
    .limit(fixedLimit(1))
    .executeTakeFirst();

/** A call with its contact's name as it is now (null once the contact is deleted for good). */
export type CallWithContact = Call & { contact_first_name: string | null; contact_last_name: string | null };

const callsWithContacts = (db: Db) => db.selectFrom('calls').leftJoin('contacts', 'contacts.id', 'calls.contact_id');
const CONTACT_NAME = ['contacts.first_name as contact_first_name', 'contacts.last_name as contact_last_name'] as const;

/** A call of a member the scope may see. */
export function findVisibleCall(db: Db, scope: Scope, id: number): Promise<CallWithContact | undefined> {
  let q = callsWithContacts(db).selectAll('calls').select(CONTACT_NAME).where('calls.id', '=', id).where('calls.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('calls.member_id', 'in', scope.memberIds);
  return q.executeTakeFirst();
}

export const listCalls = (db: Db, sessionId: number, page: PageRequest): Promise<{ rows: CallWithContact[]; total: number }> =>
  paged(
    callsWithContacts(db).where('calls.session_id', '=', sessionId),
    (q) => q.selectAll('calls').select(CONTACT_NAME).orderBy('calls.id'),
    page,
  );

export type UsageRow = {
  member_id: number;
  sessions: number;
  calls: number;
  connected: number;
  voicemail: number;
  emails: number;
  talk_seconds: number;
};

/** Each member's figures over calls started in [from, to]: one grouped query. */
export async function usageOf(db: Db, orgId: number, memberIds: number[] | null, from: string, to: string): Promise<UsageRow[]> {
  let q = db
    .selectFrom('calls')
    .select((eb) => [
      'member_id',
      eb.fn.count<number>('session_id').distinct().as('sessions'),
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('live').as('connected'),
      eb.fn.sum<number>('voicemail').as('voicemail'),
      eb.fn.sum<number>('email_sent').as('emails'),
      eb.fn.sum<number>(eb.case().when('live', '=', 1).then(eb.ref('talk_seconds')).else(0).end()).as('talk_seconds'),
    ])
    .where('org_id', '=', orgId)
    .where('started_at', '>=', from)
    .where('started_at', '<=', to);
  if (memberIds) q = q.where('member_id', 'in', memberIds);
  const rows = await q.groupBy('member_id').execute();
  return rows.map((r) => ({
    member_id: r.member_id,
    sessions: Number(r.sessions),
    calls: Number(r.calls),
    connected: Number(r.connected ?? 0),
    voicemail: Number(r.voicemail ?? 0),
    emails: Number(r.emails ?? 0),
    talk_seconds: Number(r.talk_seconds ?? 0),
  }));
}
