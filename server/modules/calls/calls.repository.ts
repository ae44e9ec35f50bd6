import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import type { CallWithContact } from '../dial-sessions/calls.repository.js';

/** What a list of calls is narrowed to, beyond the caller's scope. */
export type CallFilter = {
  /** One call (GET /rest/1/calls/{call_id}). */
  callId?: number;
  contactId?: number;
  memberId?: number;
  sessionId?: number;
  /** UTC timestamps bounding started_at. */
  from?: string;
  to?: string;
  disposition?: string;
  connected?: boolean;
  recorded?: boolean;
  /** Calls whose transcripts are these (a search by words said found them). */
  transcriptIds?: number[];
};

export type ListedCall = CallWithContact & {
  member_first_name: string | null;
  member_last_name: string | null;
  member_username: string | null;
};

/**
 * Calls made by members the scope may see, newest first, with the contact's and the member's names. One builder for
 * every filter, each adding its condition: a contact's through calls_contact (contact_id, id), a member's through
 * calls_member_started, the organisation's days through calls_org_started (migration 0018).
 */
export function listCalls(db: Db, scope: Scope, f: CallFilter, page: PageRequest): Promise<{ rows: ListedCall[]; total: number }> {
  let q = db
    .selectFrom('calls')
    .leftJoin('contacts', 'contacts.id', 'calls.contact_id')
    .leftJoin('members', 'members.id', 'calls.member_id')
    .where('calls.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('calls.member_id', 'in', scope.memberIds);
  if (f.callId !== undefined) q = q.where('calls.id', '=', f.callId);
  if (f.contactId !== undefined) q = q.where('calls.contact_id', '=', f.contactId);
  if (f.memberId !== undefined) q = q.where('calls.member_id', '=', f.memberId);
  if (f.sessionId !== undefined) q = q.where('calls.session_id', '=', f.sessionId);
  if (f.from) q = q.where('calls.started_at', '>=', f.from);
  if (f.to) q = q.where('calls.started_at', '<=', f.to);
  if (f.disposition !== undefined) q = q.where('calls.disposition', '=', f.disposition);
  if (f.connected !== undefined) q = q.where('calls.connected', '=', f.connected ? 1 : 0);
  if (f.recorded !== undefined) {
    const stored = db.selectFrom('recordings').select('recordings.call_id').where('recordings.state', '=', 'stored');
    q = f.recorded ? q.where('calls.id', 'in', stored) : q.where('calls.id', 'not in', stored);
  }
  if (f.transcriptIds)
    q = q.where(
      'calls.id',
      'in',
      db
        .selectFrom('transcripts')
        .select('transcripts.call_id')
        .where('transcripts.id', 'in', f.transcriptIds.length ? f.transcriptIds : [0]),
    );
  return paged(
    q,
    (rows) =>
      rows
        .selectAll('calls')
        .select([
          'contacts.first_name as contact_first_name',
          'contacts.last_name as contact_last_name',
          'members.first_name as member_first_name',
          'members.last_name as member_last_name',
          'members.username as member_username',
        ])
        .orderBy('calls.id', 'desc'),
    page,
  );
}
