import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { unindexTranscripts } from '../../db/transcript-index.js';
import { fixedLimit } from '../../db/paging.js';
import type { Database } from '../../db/schema.js';

/*
 * The store's side of recording retention (recording-retention.ts). The literals in the conditions are written into
 * the SQL (not bound) so that the partial indexes of migration 0016 serve them.
 */
export const EXPIRY_CHUNK = 200;
const DELETED = sql.lit('deleted' as const);

export const retentionsOf = (db: Db) => db.selectFrom('organisations').select(['id', 'recording_retention_days']).orderBy('id').execute();

const notLeased = (nowMs: number) => (eb: ExpressionBuilder<Database, 'recordings'>) =>
  eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]);

/**
 * Marks the organisation's oldest recordings made before `before` (at most EXPIRY_CHUNK) as deleted, and empties their
 * transcripts (words, segments, summary, search index) with `reason`; answers how many it marked. The update repeats
 * the conditions, so of two processes only one marks a row; a recording being fetched (leased) waits for a later pass.
 * The files stay until `unfiledRecordings`/`filed` take them, after this is committed.
 */
export async function expireRecordings(tx: Db, orgId: number, before: string, nowMs: number, reason: string): Promise<number> {
  const ids = (
    await tx
      .selectFrom('recordings')
      .select('id')
      .where('org_id', '=', orgId)
      .where('state', '!=', DELETED)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(fixedLimit(EXPIRY_CHUNK))
      .execute()
  ).map((r) => r.id);
  if (!ids.length) return 0;
  const marked = await tx
    .updateTable('recordings')
    .set({ state: 'deleted', lease_owner: null, lease_until_ms: null })
    .where('id', 'in', ids)
    .where('state', '!=', DELETED)
    .where(notLeased(nowMs))
    .returning('call_id')
    .execute();
  if (!marked.length) return 0;
  // A transcription under way loses its lease with its content, so what it settles later is refused.
  const emptied = await tx
    .updateTable('transcripts')
    .set({ status: 'deleted', reason, segments: null, text: '', summary: null, lease_owner: null, lease_until_ms: null })
    .where(
      'call_id',
      'in',
      marked.map((r) => r.call_id),
    )
    .where('status', '!=', DELETED)
    .returning('id')
    .execute();
  await unindexTranscripts(
    tx,
    emptied.map((t) => t.id),
  );
  return marked.length;
}

/** Deleted recordings whose file is still to be removed, oldest first. */
export const unfiledRecordings = (db: Db) =>
  db
    .selectFrom('recordings')
    .select(['id', 'storage_key'])
    .where('state', '=', DELETED)
    .where('storage_key', 'is not', null)
    .orderBy('id')
    .limit(fixedLimit(EXPIRY_CHUNK))
    .execute();

/** Their files are gone: the rows forget where they were. */
export async function filed(tx: Db, ids: number[]): Promise<void> {
  if (ids.length)
    await tx.updateTable('recordings').set({ storage_key: null }).where('id', 'in', ids).where('state', '=', DELETED).execute();
}
