import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { BulkJob, BulkJobsTable } from '../../db/schema.js';
import { claimable } from '../../db/locks.js';

export const insertJob = (tx: Db, values: Insertable<BulkJobsTable>) =>
  tx.insertInto('bulk_jobs').values(values).returningAll().executeTakeFirstOrThrow();

export const findJob = (db: Db, id: number): Promise<BulkJob | undefined> =>
  db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).executeTakeFirst();

/** Whether a job is waiting to be run or was left by a process that died: a read, so idle runners do not write. */
export async function anyOpen(db: Db, nowMs: number): Promise<boolean> {
  return (await open(db, nowMs).select('id').limit(1).executeTakeFirst()) !== undefined;
}

const open = (db: Db, nowMs: number) =>
  db
    .selectFrom('bulk_jobs')
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]));

/**
 * Takes the oldest open job no live runner holds, leasing it to `owner`. A claim (docs/store.md): on PostgreSQL the
 * row is read `for update skip locked`, so a job another server is claiming is passed over, and the update repeats the
 * conditions, so a job whose lease was taken meanwhile is not taken twice.
 */
export async function claimJob(tx: Db, owner: string, nowMs: number, leaseUntilMs: number): Promise<BulkJob | undefined> {
  const next = await claimable(tx, open(tx, nowMs).select('id').orderBy('id').limit(1)).executeTakeFirst();
  if (!next) return undefined;
  return tx
    .updateTable('bulk_jobs')
    .set({ status: 'running', lease_owner: owner, lease_until_ms: leaseUntilMs })
    .where('id', '=', next.id)
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .executeTakeFirst();
}

/** Records progress while the lease is still `owner`'s; answers false when another runner has taken the job. */
export async function advanceJob(tx: Db, id: number, owner: string, changes: Updateable<BulkJobsTable>): Promise<boolean> {
  const result = await tx.updateTable('bulk_jobs').set(changes).where('id', '=', id).where('lease_owner', '=', owner).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Housekeeping: jobs that finished before `before`, among the oldest `limit` (ids grow with time); open jobs stay. */
export async function pruneBulkJobs(tx: Db, before: string, limit: number): Promise<number> {
  const oldest = tx.selectFrom('bulk_jobs').select(['id', 'status', 'finished_at']).orderBy('id').limit(limit).as('w');
  const result = await tx
    .deleteFrom('bulk_jobs')
    .where('id', 'in', tx.selectFrom(oldest).select('w.id').where('w.status', 'in', ['done', 'failed']).where('w.finished_at', '<', before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A removed member's jobs that have not finished end with it: failed, what their done chunks did staying done. */
export async function failJobsOf(tx: Db, memberId: number, error: string, at: string): Promise<void> {
  await tx
    .updateTable('bulk_jobs')
    .set({ status: 'failed', error, finished_at: at, lease_owner: null, lease_until_ms: null })
    .where('member_id', '=', memberId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}
