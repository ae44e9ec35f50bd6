import { reaches, type Scope } from '../../auth/access.js';
import { findMemberOfRecord } from '../../auth/auth.repository.js';
import { type MergeField, mergeFields } from '../../contracts/content.js';
import type { Db } from '../../db/database.js';
import type { Contact, Member } from '../../db/schema.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { findMessage } from '../dial-library/dial-library.repository.js';
import { enqueueEmail } from './emails.repository.js';

/** What decides a dispositioned call's e-mail: the member's `emails` setting and the message it names for the disposition. */
export type DispositionEmail = {
  callId: number;
  orgId: number;
  memberId: number;
  contactId: number;
  /** Whose contacts the member may reach now: a contact moved out of it is not written to. */
  scope: Scope;
  /** Whether this deployment sends e-mail at all (SMTP_URL) and the member's `emails` setting is on. */
  enabled: boolean;
  messageId: number | undefined;
  nowMs: number;
};

/**
 * Queues the e-mail a disposition asks for, in the caller's transaction, merged now (what the contact and member are
 * called at the disposition is what the e-mail says, whenever it goes out). Nothing is queued, and false answered,
 * when sending is off, no message is configured for the disposition or it was deleted since, the contact has no
 * e-mail address, is trashed or out of reach, the member has no address to send from, or the call already has one.
 */
export async function queueDispositionEmail(tx: Db, e: DispositionEmail): Promise<boolean> {
  if (!e.enabled || e.messageId === undefined) return false;
  const [message, contact, member] = await Promise.all([
    findMessage(tx, e.orgId, e.messageId),
    findContactRow(tx, e.contactId),
    findMemberOfRecord(tx, e.memberId),
  ]);
  if (!message || !contact || contact.trashed || !contact.email.trim() || !reaches(e.scope, contact)) return false;
  if (!member?.email.trim()) return false;
  const values = mergeValues(contact, member);
  return enqueueEmail(tx, {
    call_id: e.callId,
    org_id: e.orgId,
    member_id: e.memberId,
    message_id: message.id,
    to_address: contact.email.trim(),
    from_name: `${member.first_name} ${member.last_name}`.trim() || member.username,
    from_address: member.email.trim(),
    subject: mergeFields(message.subject || message.display_name, values).replace(/[\r\n]+/g, ' '),
    body: mergeFields(message.body, values),
    next_attempt_at_ms: e.nowMs,
    created_at_ms: e.nowMs,
  });
}

function mergeValues(contact: Contact, member: Member): Record<MergeField, string> {
  return {
    first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email,
    phone: contact.phone,
    member_first_name: member.first_name,
    member_last_name: member.last_name,
    member_email: member.email,
    member_phone: member.phone ?? '',
  };
}
