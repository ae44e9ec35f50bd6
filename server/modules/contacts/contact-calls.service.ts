import { type Scope, reaches } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { addNote } from './contact-details.repository.js';
import { ActivityType, recordChange } from './contact-history.repository.js';
import { auditChanges } from './contact-input.js';
import { DETAIL_KINDS, updateContactRow } from './contact-rows.repository.js';
import * as repo from './contacts.repository.js';
import { formatPhone } from './contacts.serializer.js';

/* What the dialer writes on contacts: call results and notes, through the same write path as every other change. */

export type CallResult = {
  memberId: number;
  contactId: number;
  result: string;
  phone: string;
  startedAt: string;
  at: string;
  sessionId: number;
};

/**
 * A dial session's call on its contact: call_result, contacted, total_calls and last_call_time, with an activity. Only
 * while the contact is the session member's to change (`scope`): one moved out of its reach meanwhile keeps its record.
 */
export async function recordCallResult(tx: Db, scope: Scope, r: CallResult): Promise<void> {
  const contact = await repo.findContactRow(tx, r.contactId);
  if (!contact || !reaches(scope, contact)) return;
  const changes = { call_result: r.result || null, contacted_at: r.at, total_calls: contact.total_calls + 1, last_call_time: r.startedAt };
  await updateContactRow(tx, contact, { changes, at: r.at });
  const audit = auditChanges(contact, changes);
  await recordChange(tx, {
    contactIds: [contact.id],
    memberId: r.memberId,
    at: r.at,
    activity: ActivityType.called,
    text: `Called ${formatPhone(r.phone)}: ${r.result || 'no disposition'} (dial session ${r.sessionId})`,
    audit,
  });
}

/** A note written in the dialer: added to the contact's history through the same path as an update's note, while it is the member's. */
export async function addNoteFromDialer(
  tx: Db,
  scope: Scope,
  memberId: number,
  contactId: number,
  note: string,
  at: string,
): Promise<boolean> {
  const contact = await repo.findContactRow(tx, contactId);
  if (!contact || !reaches(scope, contact)) return false;
  await addNote(tx, contact.id, note, memberId, at);
  await updateContactRow(tx, contact, { changes: {}, at, detailKinds: DETAIL_KINDS.notes });
  await recordChange(tx, { contactIds: [contact.id], memberId, at, activity: ActivityType.noteAdded, text: 'Note added', audit: [] });
  return true;
}
