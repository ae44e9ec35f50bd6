import type { Db } from '../db/database.js';
import { fixedLimit } from '../db/paging.js';
import type { OutboxRow } from '../db/schema.js';
import type { Candidate } from './delivery-slots.js';
import { claimable } from '../db/locks.js';

/*
 * The callback outbox. A callback is a row written in the same transaction as the event that causes it
 * (`enqueueCallback`, the one way in), so nothing acknowledged is lost when a process dies; a delivery worker in any
 * process claims due rows with a lease and sends them. Rows with the same ordering key (a session's callbacks, to
 * whichever of its URLs) go out one after another in id order: only the oldest pending row of a key is ever due, so a
 * receiver sees a session's callbacks in the order they happened.
 */

export type NewCallback = { orgId: number; sessionId: number; type: string; url: string; body: string };

/** Due rows a claim looks at, oldest first; rows to destinations a worker has no slot for are left out before. */
const CANDIDATES = 64;

export async function enqueueCallback(tx: Db, callbacks: NewCallback[], nowMs: number): Promise<void> {
  if (!callbacks.length) return;
  await tx
    .insertInto('outbox')
    .values(
      callbacks.map((c) => ({
        org_id: c.orgId,
        session_id: c.sessionId,
        ordering_key: `session:${c.sessionId}`,
        type: c.type,
        url: written(c.url),
        body: c.body,
        state: 'pending' as const,
        attempts: 0,
        created_at_ms: nowMs,
        next_attempt_at_ms: nowMs,
      })),
    )
    .execute();
}

/**
 * The URL as the URL parser writes it, which the sender would send anyway: then it starts with its destination and
 * a slash, however it was spelled (HTTP://Host:80/...), and a claim can leave out a busy destination's rows in SQL.
 */
function written(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Pending, due, not leased to a live worker, the oldest pending row of its key, and not to a destination in `busy`. */
function due(db: Db, nowMs: number, busy: string[] = []) {
  return db
    .selectFrom('outbox as o')
    .where('o.state', '=', 'pending')
    .where('o.next_attempt_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('o.lease_until_ms', 'is', null), eb('o.lease_until_ms', '<', nowMs)]))
    .where((eb) =>
      eb.and(
        busy.map((destination) =>
          eb(eb.fn<string>('substr', ['o.url', eb.lit(1), eb.lit(destination.length + 1)]), '!=', `${destination}/`),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('outbox as p')
            .select('p.id')
            .whereRef('p.ordering_key', '=', 'o.ordering_key')
            .where('p.state', '=', 'pending')
            .whereRef('p.id', '<', 'o.id'),
        ),
      ),
    );
}

/** Whether anything is due beyond `busy` destinations: a read, so an idle worker does not write to find out. */
export async function anyDue(db: Db, nowMs: number, busy: string[] = []): Promise<boolean> {
  return (await due(db, nowMs, busy).select('o.id').limit(fixedLimit(1)).executeTakeFirst()) !== undefined;
}

/** The oldest due rows, not to a `busy` destination: what a worker chooses its next deliveries from. */
export function dueCandidates(tx: Db, nowMs: number, busy: string[]): Promise<Candidate[]> {
  // PostgreSQL: rows another server is claiming are passed over (`for update skip locked`), not waited for.
  return claimable(tx, due(tx, nowMs, busy).select(['o.id', 'o.url']).orderBy('o.id').limit(fixedLimit(CANDIDATES))).execute();
}

/**
 * Leases the rows `ids` to `owner` until `leaseUntilMs` and answers them, counting the attempt: those still pending,
 * due and unleased. The update checks that itself, so of two processes that chose the same row only one gets it
 * (on PostgreSQL the second waits for the first's row lock and then finds the lease taken). A row still pending is
 * still the oldest of its key: rows are only added after it, and none goes back to pending.
 */
export function claimRows(tx: Db, owner: string, ids: number[], nowMs: number, leaseUntilMs: number): Promise<OutboxRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return tx
    .updateTable('outbox')
    .set((eb) => ({ lease_owner: owner, lease_until_ms: leaseUntilMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .where('next_attempt_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .execute();
}

export type Outcome =
  | { id: number; delivered: true; status: number; atMs: number }
  | { id: number; delivered: false; status: number | null; error: string; nextAttemptAtMs: number | null };

/** Records what became of leased rows; a row whose lease another worker took meanwhile is left to it. */
export async function recordOutcomes(tx: Db, owner: string, outcomes: Outcome[]): Promise<void> {
  for (const o of outcomes) {
    const values = o.delivered
      ? { state: 'delivered' as const, last_status: o.status, last_error: null, delivered_at_ms: o.atMs }
      : o.nextAttemptAtMs === null
        ? { state: 'failed' as const, last_status: o.status, last_error: o.error }
        : { last_status: o.status, last_error: o.error, next_attempt_at_ms: o.nextAttemptAtMs };
    await tx
      .updateTable('outbox')
      .set({ ...values, lease_owner: null, lease_until_ms: null })
      .where('id', '=', o.id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}

export type OrgSecrets = { current: string | null; previous: string | null; rotatedAt: string | null };

export async function secretsOf(db: Db, orgIds: number[]): Promise<Map<number, OrgSecrets>> {
  if (!orgIds.length) return new Map();
  const rows = await db
    .selectFrom('organisations')
    .select(['id', 'callback_secret', 'callback_secret_previous', 'callback_secret_rotated_at'])
    .where('id', 'in', orgIds)
    .execute();
  return new Map(
    rows.map((r) => [r.id, { current: r.callback_secret, previous: r.callback_secret_previous, rotatedAt: r.callback_secret_rotated_at }]),
  );
}

export async function setSecret(tx: Db, orgId: number, secret: string, previous: string | null, at: string): Promise<void> {
  await tx
    .updateTable('organisations')
    .set({ callback_secret: secret, callback_secret_previous: previous, callback_secret_rotated_at: at })
    .where('id', '=', orgId)
    .execute();
}

/**
 * Housekeeping: callbacks delivered or given up on before `beforeMs`, among the oldest `limit` rows (ids grow with
 * time, so no index on time is needed and the table is never scanned); pending ones stay whatever their age.
 */
export async function pruneCallbacks(tx: Db, beforeMs: number, limit: number): Promise<number> {
  const oldest = tx.selectFrom('outbox').select(['id', 'state', 'created_at_ms']).orderBy('id').limit(limit).as('w');
  const result = await tx
    .deleteFrom('outbox')
    .where('id', 'in', tx.selectFrom(oldest).select('w.id').where('w.state', '!=', 'pending').where('w.created_at_ms', '<', beforeMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
