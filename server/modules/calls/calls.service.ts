import type { AuthContext } from '../../auth/access.js';
import type { ListCallsQuery, ListedCallRecord } from '../../contracts/calls.js';
import { transcriptsSaying } from '../../db/transcript-index.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { findVisibleVersions } from '../contacts/contacts.repository.js';
import { scopeOfOwner } from '../contacts/contacts.service.js';
import { callRecords, type DialReadsDeps } from '../dial-sessions/dial-reads.service.js';
import { type CallFilter, type ListedCall, listCalls } from './calls.repository.js';

/** A search by words said looks at this many of the newest transcripts that hold the phrase. */
const SEARCH_MATCHES = 5_000;

/**
 * A page of calls made by members the caller may see, newest first, as GET /rest/1/dialsession/call/{id} shows them,
 * narrowed by the query's filters: a contact the caller can see (else 404, as the contact itself would be), a member
 * of its team (else 400 naming member_id), days, disposition, connected, recorded, and words said.
 */
export async function callList(
  ctx: DialReadsDeps,
  auth: AuthContext,
  q: ListCallsQuery,
): Promise<{ records: ListedCallRecord[]; total: number }> {
  const { db } = ctx.store;
  if (q.contact_id !== undefined && !(await findVisibleVersions(db, auth.scope, [q.contact_id]))[0])
    throw notFound(`There is no contact ${q.contact_id}.`);
  const scope = await scopeOfOwner(db, auth, q.member_id, 'member_id');
  if (q.date_start && q.date_end && q.date_end < q.date_start) throw invalidField('date_end', 'date_end must not be before date_start.');
  const filter: CallFilter = {
    contactId: q.contact_id,
    sessionId: q.session_id,
    disposition: q.disposition,
    connected: q.connected,
    recorded: q.recorded,
    from: q.date_start && `${q.date_start} 00:00:00`,
    to: q.date_end && `${q.date_end} 23:59:59`,
    transcriptIds: q.search ? await transcriptsSaying(db, q.search, SEARCH_MATCHES) : undefined,
  };
  const { rows, total } = await listCalls(db, scope, filter, q);
  const records = await callRecords(ctx, rows, q);
  return { records: records.map((record, i) => listed(record, rows[i]!)), total };
}

/** One call the caller may see, as the list shows it (with its session and who made it); anything else is 404. */
export async function callRead(
  ctx: DialReadsDeps,
  auth: AuthContext,
  callId: number,
  q: { include_recording: boolean; include_transcript: boolean },
): Promise<ListedCallRecord> {
  const { rows } = await listCalls(ctx.store.db, auth.scope, { callId }, { page: 1, page_size: 1 });
  if (!rows[0]) throw notFound(`There is no call ${callId}.`);
  const [record] = await callRecords(ctx, rows, q);
  return listed(record!, rows[0]);
}

const listed = (record: Awaited<ReturnType<typeof callRecords>>[number], c: ListedCall): ListedCallRecord => ({
  ...record,
  session_id: String(c.session_id),
  member_id: String(c.member_id),
  /* Who made the call as the app names a member everywhere: the name, or the username when it has none. */
  member_name: [c.member_first_name, c.member_last_name].filter(Boolean).join(' ') || (c.member_username ?? ''),
});
