import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit } from '../../db/paging.js';
import type { Recording } from '../../db/schema.js';
import { claimable } from '../../db/locks.js';

export type Announced = {
  callId: number;
  orgId: number;
  sourceUrl: string;
  contentType: string;
  bytes: number;
  durationMs: number;
  at: string;
  nowMs: number;
};

/** Where a call's recording is stored, if it is (the transcription job reads it from there). */
export const storedRecordingOf = (db: Db, callId: number) =>
  db.selectFrom('recordings').select(['storage_key', 'created_at']).where('call_id', '=', callId).executeTakeFirst();

/** The carrier answered a call it records: its recording is pending from now (nothing if the carrier was quicker). */
export async function expectRecording(tx: Db, r: { callId: number; orgId: number; at: string; nowMs: number }): Promise<void> {
  await tx
    .insertInto('recordings')
    .values({
      call_id: r.callId,
      org_id: r.orgId,
      state: 'expected',
      source_url: '',
      content_type: 'audio/ogg',
      bytes: 0,
      duration_ms: 0,
      attempts: 0,
      next_attempt_at_ms: r.nowMs,
      created_at: r.at,
    })
    .onConflict((oc) => oc.column('call_id').doNothing())
    .execute();
}

/** The carrier has a call's recording ready: once per call, whatever how often the carrier says so. */
export async function announceRecording(tx: Db, r: Announced): Promise<void> {
  const announced = {
    state: 'announced' as const,
    source_url: r.sourceUrl,
    content_type: r.contentType,
    bytes: r.bytes,
    duration_ms: r.durationMs,
    next_attempt_at_ms: r.nowMs,
  };
  await tx
    .insertInto('recordings')
    .values({ call_id: r.callId, org_id: r.orgId, attempts: 0, created_at: r.at, ...announced })
    .onConflict((oc) => oc.column('call_id').doUpdateSet(announced).where('recordings.state', '=', 'expected'))
    .execute();
}

/** How long the carrier may take to announce a recording it owes before the housekeeper gives up on it. */
export const EXPECTED_FOR_MS = 3_600_000;

/** Recordings the carrier never announced (it lost the call's audio, or was replaced): failed, with the reason. */
export async function giveUpExpected(tx: Db, atMs: number, limit: number): Promise<number> {
  const ids = (
    await tx
      .selectFrom('recordings')
      .select('id')
      .where('state', '=', 'expected')
      .where('next_attempt_at_ms', '<', atMs - EXPECTED_FOR_MS)
      .orderBy('next_attempt_at_ms')
      .orderBy('id')
      .limit(fixedLimit(limit))
      .execute()
  ).map((r) => r.id);
  if (!ids.length) return 0;
  // The update repeats the state: an announcement that came meanwhile wins.
  const result = await tx
    .updateTable('recordings')
    .set({ state: 'failed', error: 'The carrier did not deliver the recording.' })
    .where('id', 'in', ids)
    .where('state', '=', 'expected')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const due = (db: Db, nowMs: number) =>
  db
    .selectFrom('recordings')
    .where('state', '=', 'announced')
    .where('next_attempt_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]));

export const anyRecordingDue = async (db: Db, nowMs: number) =>
  (await due(db, nowMs).select('id').limit(fixedLimit(1)).executeTakeFirst()) !== undefined;

/** Leases due recordings to `owner`: the update repeats the conditions, so of two processes only one wins a row. */
export async function claimRecordings(tx: Db, owner: string, nowMs: number, untilMs: number, limit: number): Promise<Recording[]> {
  // PostgreSQL: rows another server is claiming are passed over (`for update skip locked`), not waited for.
  const ids = (await claimable(tx, due(tx, nowMs).select('id').orderBy('next_attempt_at_ms').orderBy('id').limit(limit)).execute()).map(
    (r) => r.id,
  );
  if (!ids.length) return [];
  return tx
    .updateTable('recordings')
    .set((eb) => ({ lease_owner: owner, lease_until_ms: untilMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where('state', '=', 'announced')
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .execute();
}

export async function renewRecording(tx: Db, id: number, owner: string, untilMs: number): Promise<boolean> {
  const result = await tx
    .updateTable('recordings')
    .set({ lease_until_ms: untilMs })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records what became of a fetch, while the lease is still `owner`'s; answers whether it was. */
export async function settleRecording(
  tx: Db,
  id: number,
  owner: string,
  values: Partial<Pick<Recording, 'state' | 'storage_key' | 'bytes' | 'stored_at' | 'error' | 'next_attempt_at_ms'>>,
): Promise<boolean> {
  const result = await tx
    .updateTable('recordings')
    .set({ ...values, lease_owner: null, lease_until_ms: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A call's recording, when the scope may see the call. */
export function findVisibleRecording(db: Db, scope: Scope, callId: number): Promise<(Recording & { member_id: number }) | undefined> {
  let q = db
    .selectFrom('recordings')
    .innerJoin('calls', 'calls.id', 'recordings.call_id')
    .selectAll('recordings')
    .select('calls.member_id')
    .where('recordings.call_id', '=', callId)
    .where('calls.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('calls.member_id', 'in', scope.memberIds);
  return q.executeTakeFirst();
}

/** Which of these calls have a stored recording. */
export async function storedRecordingCalls(db: Db, callIds: number[]): Promise<Set<number>> {
  if (!callIds.length) return new Set();
  const rows = await db.selectFrom('recordings').select('call_id').where('call_id', 'in', callIds).where('state', '=', 'stored').execute();
  return new Set(rows.map((r) => r.call_id));
}
