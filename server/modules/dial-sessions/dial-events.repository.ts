import type { Db } from '../../db/database.js';
import { fixedLimit } from '../../db/paging.js';

export type DialEventRow = { id: number; session_id: number; type: string; data: string };

export async function insertEvent(tx: Db, sessionId: number, type: string, data: unknown, at: string): Promise<number> {
  const row = await tx
    .insertInto('dial_events')
    .values({ session_id: sessionId, type, data: JSON.stringify(data), created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const eventsAfter = (db: Db, sessionId: number, afterId: number): Promise<DialEventRow[]> =>
  db
    .selectFrom('dial_events')
    .select(['id', 'session_id', 'type', 'data'])
    .where('session_id', '=', sessionId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(fixedLimit(1000))
    .execute();

/** Every session's events past a cursor: what a process has not yet passed on to its open streams. */
export const eventsSince = (db: Db, cursor: number, limit: number): Promise<DialEventRow[]> =>
  db
    .selectFrom('dial_events')
    .select(['id', 'session_id', 'type', 'data'])
    .where('id', '>', cursor)
    .orderBy('id')
    .limit(fixedLimit(limit))
    .execute();

export async function lastEventId(db: Db, sessionId?: number): Promise<number> {
  let q = db.selectFrom('dial_events').select((eb) => eb.fn.max('id').as('id'));
  if (sessionId !== undefined) q = q.where('session_id', '=', sessionId);
  return Number((await q.executeTakeFirst())?.id ?? 0);
}

/**
 * Housekeeping: events written before `before`, among the oldest `limit` rows (ids grow with time). They serve live
 * screens' streams, which start from a snapshot; nothing reads old ones.
 */
export async function pruneDialEvents(tx: Db, before: string, limit: number): Promise<number> {
  const oldest = tx.selectFrom('dial_events').select(['id', 'created_at']).orderBy('id').limit(limit).as('w');
  const result = await tx
    .deleteFrom('dial_events')
    .where('id', 'in', tx.selectFrom(oldest).select('w.id').where('w.created_at', '<', before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
