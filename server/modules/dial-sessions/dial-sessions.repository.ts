import type { Insertable, Updateable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit, paged, type PageRequest } from '../../db/paging.js';
import type { DialSessionContactsTable, DialSessionsTable, DialSession, DialSessionStatus, SsoKeysTable } from '../../db/schema.js';
import { claimable, forUpdate } from '../../db/locks.js';

/** Sessions of members the scope may see: the organisation's, or its team's. */
function sessionsInScope(db: Db, scope: Scope) {
  const q = db.selectFrom('dial_sessions').where('dial_sessions.org_id', '=', scope.orgId);
  return scope.kind === 'team' ? q.where('dial_sessions.member_id', 'in', scope.memberIds) : q;
}

export const findSession = (db: Db, id: number) => db.selectFrom('dial_sessions').selectAll().where('id', '=', id).executeTakeFirst();

/** A session to drive, locked until the transaction ends: one driver per session at a time (docs/store.md). */
export const lockSession = (tx: Db, id: number) =>
  forUpdate(tx, tx.selectFrom('dial_sessions').selectAll().where('id', '=', id)).executeTakeFirst();

/** A session still due to wake, locked, unless another driver holds it (PostgreSQL: `for update skip locked`). */
export const claimDueSession = (tx: Db, id: number, nowMs: number) =>
  claimable(
    tx,
    tx.selectFrom('dial_sessions').selectAll().where('id', '=', id).where('wake_at_ms', '<=', nowMs).where('status', '=', 'active'),
  ).executeTakeFirst();

export const findVisibleSession = (db: Db, scope: Scope, id: number) =>
  sessionsInScope(db, scope).selectAll().where('dial_sessions.id', '=', id).executeTakeFirst();

export const insertSession = (tx: Db, values: Insertable<DialSessionsTable>) =>
  tx.insertInto('dial_sessions').values(values).returningAll().executeTakeFirstOrThrow();

export async function updateSession(tx: Db, id: number, changes: Updateable<DialSessionsTable>): Promise<DialSession> {
  return tx.updateTable('dial_sessions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The same member's session made from the same body since `since` (a client retrying without an Idempotency-Key). */
export const findRepeat = (tx: Db, memberId: number, hash: string, since: string) =>
  tx
    .selectFrom('dial_sessions')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('request_hash', '=', hash)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(fixedLimit(1))
    .executeTakeFirst();

export const findByIdempotencyKey = (tx: Db, memberId: number, key: string) =>
  tx.selectFrom('dial_sessions').selectAll().where('member_id', '=', memberId).where('idempotency_key', '=', key).executeTakeFirst();

export type SessionFilter = { from?: string; to?: string; status?: DialSessionStatus };

export function listSessions(db: Db, scope: Scope, filter: SessionFilter, page: PageRequest) {
  let q = sessionsInScope(db, scope);
  if (filter.from) q = q.where('dial_sessions.created_at', '>=', filter.from);
  if (filter.to) q = q.where('dial_sessions.created_at', '<=', filter.to);
  if (filter.status) q = q.where('dial_sessions.status', '=', filter.status);
  return paged(q, (rows) => rows.selectAll().orderBy('dial_sessions.id', 'desc'), page);
}

/**
 * The member's running session other than `exceptId`: at most one (migration 0015's partial unique index on member_id
 * where status is 'active', which this look-up reads).
 */
export const findRunningSession = (db: Db, memberId: number, exceptId: number) =>
  db
    .selectFrom('dial_sessions')
    .select('id')
    .where('member_id', '=', memberId)
    .where('status', '=', 'active')
    .where('id', '!=', exceptId)
    .limit(fixedLimit(1))
    .executeTakeFirst();

/** Migration 0015's index: one running session per member. */
export const RUNNING_INDEX = 'dial_sessions_one_running';

/** Whether `error` is the store refusing a second running session of one member (the partial unique index of 0015). */
export function isSecondRunningSession(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  // SQLite names the columns of the unique index it checks (member_id alone is this index); PostgreSQL (23505) names the index.
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return /: dial_sessions\.member_id$/.test(text);
  return code === '23505' && text.includes(RUNNING_INDEX);
}

/** Calls per session, for a page of sessions. */
export async function callCounts(db: Db, sessionIds: number[]): Promise<Map<number, number>> {
  if (!sessionIds.length) return new Map();
  const rows = await db
    .selectFrom('calls')
    .select(['session_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('session_id', 'in', sessionIds)
    .groupBy('session_id')
    .execute();
  return new Map(rows.map((r) => [r.session_id, Number(r.n)]));
}

export async function insertCallbacks(tx: Db, sessionId: number, callbacks: { type: string; url: string }[]) {
  if (callbacks.length)
    await tx
      .insertInto('dial_session_callbacks')
      .values(callbacks.map((c) => ({ session_id: sessionId, ...c })))
      .execute();
}

export const callbacksOf = (db: Db, sessionId: number) =>
  db.selectFrom('dial_session_callbacks').select(['type', 'url']).where('session_id', '=', sessionId).execute();

export async function insertQueue(tx: Db, rows: Insertable<DialSessionContactsTable>[]) {
  for (let i = 0; i < rows.length; i += 500)
    await tx
      .insertInto('dial_session_contacts')
      .values(rows.slice(i, i + 500))
      .execute();
}

export const queueContactIds = async (db: Db, sessionId: number): Promise<number[]> =>
  (await db.selectFrom('dial_session_contacts').select('contact_id').where('session_id', '=', sessionId).orderBy('position').execute()).map(
    (r) => r.contact_id,
  );

export const queueEntry = (db: Db, sessionId: number, position: number) =>
  db
    .selectFrom('dial_session_contacts')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('position', '=', position)
    .executeTakeFirstOrThrow();

export async function updateQueueEntry(tx: Db, sessionId: number, position: number, changes: Updateable<DialSessionContactsTable>) {
  await tx.updateTable('dial_session_contacts').set(changes).where('session_id', '=', sessionId).where('position', '=', position).execute();
}

export async function releaseCurrent(tx: Db, sessionId: number) {
  await tx
    .updateTable('dial_session_contacts')
    .set({ status: 'pending' })
    .where('session_id', '=', sessionId)
    .where('status', '=', 'current')
    .execute();
}

/** Whether the contact was called earlier in this session (it then gets no skip result). */
export async function dialedBefore(db: Db, sessionId: number, contactId: number, position: number): Promise<boolean> {
  const row = await db
    .selectFrom('calls')
    .select('id')
    .where('session_id', '=', sessionId)
    .where('contact_id', '=', contactId)
    .where('position', '<', position)
    .limit(fixedLimit(1))
    .executeTakeFirst();
  return row !== undefined;
}

/** A stretch of the queue with each contact's name, for the dialer screen. */
export const queueWindow = (db: Db, sessionId: number, from: number, to: number) =>
  db
    .selectFrom('dial_session_contacts')
    .leftJoin('contacts', 'contacts.id', 'dial_session_contacts.contact_id')
    .select([
      'dial_session_contacts.position',
      'dial_session_contacts.contact_id',
      'dial_session_contacts.status',
      'dial_session_contacts.skip_reason',
      'dial_session_contacts.result',
      'contacts.first_name',
      'contacts.last_name',
      'contacts.owner_id',
    ])
    .where('dial_session_contacts.session_id', '=', sessionId)
    .where('dial_session_contacts.position', '>=', from)
    .where('dial_session_contacts.position', '<=', to)
    .orderBy('dial_session_contacts.position')
    .execute();

/** How far a session has come: contacts finished (called or skipped), and calls a person answered. */
export async function progressOf(db: Db, sessionId: number): Promise<{ finished: number; skipped: number; connected: number }> {
  const [queue, calls] = await Promise.all([
    db
      .selectFrom('dial_session_contacts')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('session_id', '=', sessionId)
      .where('status', 'in', ['done', 'skipped'])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('session_id', '=', sessionId)
      .where('connected', '=', 1)
      .executeTakeFirstOrThrow(),
  ]);
  const n = (status: string) => Number(queue.find((q) => q.status === status)?.n ?? 0);
  return { finished: n('done') + n('skipped'), skipped: n('skipped'), connected: Number(calls.n) };
}

export async function insertSsoKey(tx: Db, row: Insertable<SsoKeysTable>) {
  await tx.insertInto('sso_keys').values(row).execute();
}

/** A member's one-time sign-in keys, spent or not: none may sign in a member who was removed. */
export async function deleteSsoKeysOf(tx: Db, memberId: number) {
  await tx.deleteFrom('sso_keys').where('member_id', '=', memberId).execute();
}

/** A member's sessions that have not ended, ready or running. */
export const unendedSessionIds = async (db: Db, memberId: number): Promise<number[]> =>
  (await db.selectFrom('dial_sessions').select('id').where('member_id', '=', memberId).where('status', '!=', 'ended').execute()).map(
    (r) => r.id,
  );

/** Spends a one-time key: it works once, before it expires. */
export const consumeSsoKey = (tx: Db, keyHash: string, at: string) =>
  tx
    .updateTable('sso_keys')
    .set({ used_at: at })
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['member_id', 'session_id'])
    .executeTakeFirst();

export const dueSessions = (db: Db, nowMs: number, limit: number) =>
  db
    .selectFrom('dial_sessions')
    .select('id')
    .where('wake_at_ms', '<=', nowMs)
    .where('status', '=', 'active')
    .orderBy('wake_at_ms')
    .limit(fixedLimit(limit))
    .execute();
