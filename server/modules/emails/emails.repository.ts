import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import { claimable } from '../../db/locks.js';
import { fixedLimit } from '../../db/paging.js';
import type { EmailRow, EmailsTable } from '../../db/schema.js';

/*
 * The e-mail outbox: a disposition e-mail is a row written in the transaction that dispositions its call (one per
 * call: the call's id is unique here), claimed with a lease by a delivery job in any process.
 */

export type NewEmail = Omit<Insertable<EmailsTable>, 'id' | 'state' | 'attempts' | 'lease_owner' | 'lease_until_ms' | 'sent_at_ms'>;

/** Queues an e-mail; false when its call already has one (a call is dispositioned once, but nothing is sent twice). */
export async function enqueueEmail(tx: Db, email: NewEmail): Promise<boolean> {
  const row = await tx
    .insertInto('emails')
    .values({ ...email, state: 'pending', attempts: 0 })
    .onConflict((oc) => oc.column('call_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

const due = (db: Db, nowMs: number) =>
  db
    .selectFrom('emails')
    .where('state', '=', 'pending')
    .where('next_attempt_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]));

export const anyEmailDue = async (db: Db, nowMs: number) =>
  (await due(db, nowMs).select('id').limit(fixedLimit(1)).executeTakeFirst()) !== undefined;

/** Leases due e-mails to `owner`, counting the attempt: the update repeats the conditions, so of two processes only one wins a row. */
export async function claimEmails(tx: Db, owner: string, nowMs: number, untilMs: number, limit: number): Promise<EmailRow[]> {
  // PostgreSQL: rows another server is claiming are passed over (`for update skip locked`), not waited for.
  const ids = (await claimable(tx, due(tx, nowMs).select('id').orderBy('next_attempt_at_ms').orderBy('id').limit(limit)).execute()).map(
    (r) => r.id,
  );
  if (!ids.length) return [];
  return tx
    .updateTable('emails')
    .set((eb) => ({ lease_owner: owner, lease_until_ms: untilMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .execute();
}

type Settled =
  { state: 'sent'; sent_at_ms: number } | { state: 'failed'; last_error: string } | { last_error: string; next_attempt_at_ms: number };

/** Records what became of a leased e-mail, while `owner` still holds it; false when its lease was lost meanwhile. */
export async function settleEmail(tx: Db, id: number, owner: string, values: Settled): Promise<boolean> {
  const result = await tx
    .updateTable('emails')
    .set({ ...values, lease_owner: null, lease_until_ms: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A call's e-mail, if it has one (what the call's email_sent and email_ok say, in full). */
export const emailOfCall = (db: Db, callId: number) => db.selectFrom('emails').selectAll().where('call_id', '=', callId).executeTakeFirst();

/**
 * Housekeeping: e-mails sent or given up on before `beforeMs`, among the oldest `limit` rows (ids grow with time, so no
 * index on time is needed); pending ones stay whatever their age. The call keeps what became of its e-mail.
 */
export async function pruneEmails(tx: Db, beforeMs: number, limit: number): Promise<number> {
  const oldest = tx.selectFrom('emails').select(['id', 'state', 'created_at_ms']).orderBy('id').limit(limit).as('w');
  const result = await tx
    .deleteFrom('emails')
    .where('id', 'in', tx.selectFrom(oldest).select('w.id').where('w.state', '!=', 'pending').where('w.created_at_ms', '<', beforeMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
