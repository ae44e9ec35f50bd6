import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit } from '../../db/paging.js';
import type { Transcript, TranscriptsTable } from '../../db/schema.js';
import { indexTranscript } from '../../db/transcript-index.js';
import type { Updateable } from 'kysely';
import { claimable } from '../../db/locks.js';

/** A call's transcript is queued once its recording is stored: once per call. */
export async function queueTranscript(tx: Db, t: { callId: number; orgId: number; at: string; nowMs: number }): Promise<void> {
  await tx
    .insertInto('transcripts')
    .values({
      call_id: t.callId,
      org_id: t.orgId,
      status: 'queued',
      attempts: 0,
      next_attempt_at_ms: t.nowMs,
      created_at: t.at,
    })
    .onConflict((oc) => oc.column('call_id').doNothing())
    .execute();
}

/** Waiting for its first go, or left 'processing' by a process whose lease ran out (it died mid-way). */
const due = (db: Db, nowMs: number) =>
  db
    .selectFrom('transcripts')
    .where('status', 'in', ['queued', 'processing'])
    .where('next_attempt_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]));

export const anyTranscriptDue = async (db: Db, nowMs: number) =>
  (await due(db, nowMs).select('id').limit(fixedLimit(1)).executeTakeFirst()) !== undefined;

/** Leases due transcripts to `owner` (the update repeats the conditions: of two processes only one wins a row). */
export async function claimTranscripts(tx: Db, owner: string, nowMs: number, untilMs: number, limit: number): Promise<Transcript[]> {
  // PostgreSQL: rows another server is claiming are passed over (`for update skip locked`), not waited for.
  const ids = (await claimable(tx, due(tx, nowMs).select('id').orderBy('next_attempt_at_ms').orderBy('id').limit(limit)).execute()).map(
    (r) => r.id,
  );
  if (!ids.length) return [];
  return tx
    .updateTable('transcripts')
    .set((eb) => ({ status: 'processing' as const, lease_owner: owner, lease_until_ms: untilMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where('status', 'in', ['queued', 'processing'])
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .execute();
}

export async function renewTranscript(tx: Db, id: number, owner: string, untilMs: number): Promise<boolean> {
  const result = await tx
    .updateTable('transcripts')
    .set({ lease_until_ms: untilMs })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records a step of a transcript while `owner` holds it (`release` gives the lease back); answers whether it did.
 * The words said go into the search index in the same write.
 */
export async function settleTranscript(
  tx: Db,
  id: number,
  owner: string,
  values: Updateable<TranscriptsTable>,
  release = true,
): Promise<boolean> {
  const result = await tx
    .updateTable('transcripts')
    .set({ ...values, ...(release ? { lease_owner: null, lease_until_ms: null } : {}) })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  const held = Number(result.numUpdatedRows) > 0;
  if (held && values.text !== undefined) await indexTranscript(tx, id, values.text);
  return held;
}

/** A transcript, when the scope may see its call. */
export function findVisibleTranscript(
  db: Db,
  scope: Scope,
  id: number,
): Promise<(Transcript & { member_id: number; session_id: number }) | undefined> {
  let q = db
    .selectFrom('transcripts')
    .innerJoin('calls', 'calls.id', 'transcripts.call_id')
    .selectAll('transcripts')
    .select(['calls.member_id', 'calls.session_id'])
    .where('transcripts.id', '=', id)
    .where('calls.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('calls.member_id', 'in', scope.memberIds);
  return q.executeTakeFirst();
}

/** What call records show of their recordings and transcripts, for a page of calls at once. */
export type CallMedia = {
  call_id: number;
  recording_state: string | null;
  transcript_id: number | null;
  transcript_status: string | null;
  transcript_reason: string | null;
  summary: string | null;
  talk_member_ms: number | null;
  talk_contact_ms: number | null;
};

export async function mediaOfCalls(db: Db, callIds: number[]): Promise<Map<number, CallMedia>> {
  if (!callIds.length) return new Map();
  const rows = await db
    .selectFrom('calls')
    .leftJoin('recordings', 'recordings.call_id', 'calls.id')
    .leftJoin('transcripts', 'transcripts.call_id', 'calls.id')
    .select([
      'calls.id as call_id',
      'recordings.state as recording_state',
      'transcripts.id as transcript_id',
      'transcripts.status as transcript_status',
      'transcripts.reason as transcript_reason',
      'transcripts.summary',
      'transcripts.talk_member_ms',
      'transcripts.talk_contact_ms',
    ])
    .where('calls.id', 'in', callIds)
    .execute();
  return new Map(rows.map((r) => [r.call_id, r]));
}
