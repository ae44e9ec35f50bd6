import type { ExpressionBuilder } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/*
 * Periodic passes shared by every server (the housekeeper's), as leased rows of `passes` (migration 0021): a pass is
 * due when its `due_at_ms` has come, and claimed by a conditional update that also finds it unleased, so of the
 * servers that find it due one passes (on PostgreSQL the second waits for the first's row lock, then finds the lease
 * taken). The server that passed sets when the next is due. A row due further off than one interval was written under
 * a clock that has since gone back (CLOCK_START): it is due now.
 */

export type Pass = { name: string; everyMs: number };

/** The pass's row, due and unleased at `nowMs`: what a claim repeats in its update. */
const claimable = (pass: Pass, nowMs: number) => (eb: ExpressionBuilder<Database, 'passes'>) =>
  eb.and([
    eb('name', '=', pass.name),
    eb.or([eb('due_at_ms', '<=', nowMs), eb('due_at_ms', '>', nowMs + pass.everyMs)]),
    eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]),
  ]);

/** Whether the pass may be claimed: due and unleased, or never passed (no row yet). A read. */
export async function passDue(db: Db, pass: Pass, nowMs: number): Promise<boolean> {
  if (await db.selectFrom('passes').select('name').where(claimable(pass, nowMs)).executeTakeFirst()) return true;
  return !(await db.selectFrom('passes').select('name').where('name', '=', pass.name).executeTakeFirst());
}

/** Leases the pass to `owner` until `untilMs` when it is due and unleased; answers whether it did. */
export async function claimPass(tx: Db, pass: Pass, owner: string, nowMs: number, untilMs: number): Promise<boolean> {
  await tx
    .insertInto('passes')
    .values({ name: pass.name, due_at_ms: nowMs, lease_owner: null, lease_until_ms: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await tx
    .updateTable('passes')
    .set({ lease_owner: owner, lease_until_ms: untilMs })
    .where(claimable(pass, nowMs))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Extends the lease while `owner` holds it; answers false when it was lost. */
export async function renewPass(tx: Db, pass: Pass, owner: string, untilMs: number): Promise<boolean> {
  const result = await tx
    .updateTable('passes')
    .set({ lease_until_ms: untilMs })
    .where('name', '=', pass.name)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets go of the pass while `owner` holds it: due at `nextDueMs`, or when it was (a pass stopped half-way). */
export async function releasePass(tx: Db, pass: Pass, owner: string, nextDueMs?: number): Promise<void> {
  await tx
    .updateTable('passes')
    .set({ lease_owner: null, lease_until_ms: null, ...(nextDueMs === undefined ? {} : { due_at_ms: nextDueMs }) })
    .where('name', '=', pass.name)
    .where('lease_owner', '=', owner)
    .execute();
}
