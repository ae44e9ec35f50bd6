import type { Db } from '../../db/database.js';
import { fixedLimit } from '../../db/paging.js';
import { settledMaxId, writingTo } from '../../db/locks.js';
import { signal } from '../../db/signals.js';

export type DialEventRow = { id: number; session_id: number; type: string; data: string };

/** Other servers' event hubs hear of new events on this channel when the write commits (db/signals.ts). */
export const DIAL_EVENTS_CHANNEL = 'dial_events';

export async function insertEvent(tx: Db, sessionId: number, type: string, data: unknown, at: string): Promise<number> {
  // Streams follow events by id: a writer of them says so until it commits (db/locks.ts).
  await writingTo(tx, 'dial_events');
  const row = await tx
    .insertInto('dial_events')
    .values({ session_id: sessionId, type, data: JSON.stringify(data), created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await signal(tx, DIAL_EVENTS_CHANNEL);
  return row.id;
}

/** Events are read a page at a time: a constant LIMIT (db/paging.ts). */
export const EVENT_PAGE = 1000;

/** One session's events in (afterId, upTo], on the (session_id, id) index: a stream catching up on what it missed. */
export const eventsAfter = (db: Db, sessionId: number, afterId: number, upTo: number): Promise<DialEventRow[]> =>
  db
    .selectFrom('dial_events')
    .select(['id', 'session_id', 'type', 'data'])
    .where('session_id', '=', sessionId)
    .where('id', '>', afterId)
    .where('id', '<=', upTo)
    .orderBy('id')
    .limit(fixedLimit(EVENT_PAGE))
    .execute();

/** Every session's events in (position, upTo]: what a process has not yet passed on to the streams following it. */
export const eventsSince = (db: Db, position: number, upTo: number): Promise<DialEventRow[]> =>
  db
    .selectFrom('dial_events')
    .select(['id', 'session_id', 'type', 'data'])
    .where('id', '>', position)
    .where('id', '<=', upTo)
    .orderBy('id')
    .limit(fixedLimit(EVENT_PAGE))
    .execute();

/** The highest event id no writer can still commit an event below (PostgreSQL commits ids out of order: db/locks.ts). */
export const settledEventId = (db: Db): Promise<number> => settledMaxId(db, 'dial_events', (tx) => lastEventId(tx as Db));

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
