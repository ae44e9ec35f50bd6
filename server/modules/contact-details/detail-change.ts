import type { AuthContext } from '../../auth/access.js';
import type { Db, Store } from '../../db/database.js';
import type { Contact, ContactUpdate } from '../../db/schema.js';
import { now } from '../../lib/time.js';
import { type AuditEntry, recordChange } from '../contacts/contact-history.repository.js';
import { updateContactRow } from '../contacts/contact-rows.repository.js';
import { visibleContact } from '../contacts/contacts.service.js';

/** What changing a contact's details needs (the services of contact-details/ take it too). */
export type DetailsDeps = { store: Store };

/** What a change to a contact's own detail rows did, and what it answers. */
export type DetailChange<T> = {
  result: T;
  /** The contact's history of the change. Empty: nothing changed, so nothing is raised or recorded. */
  audit: AuditEntry[];
  activity: number;
  text: string;
  /** Columns of the contact row that follow its details (`email` and `phone` follow the primary ones). */
  columns?: ContactUpdate;
  /** Bits of sparse detail tables the change added rows to (DETAIL_KINDS). */
  detailKinds?: number;
  /** E-mail addresses or phone numbers changed: the search indexes follow. */
  searchChanged?: boolean;
  /** Instead, one was only added: the search indexes follow, their terms only gaining it. */
  searchAdded?: boolean;
};

/**
 * One change to a contact's details as one transaction: the contact must be one the caller may see (else 404,
 * whether it exists or not), and when anything changed, its row follows in the same transaction (version for the
 * record cache, modification time, denormalised columns, search terms) with the activity and audit records.
 */
export function changeContactDetails<T>(
  ctx: DetailsDeps,
  auth: AuthContext,
  contactId: number,
  work: (tx: Db, contact: Contact, at: string) => Promise<DetailChange<T>>,
): Promise<T> {
  return ctx.store.write(async (tx) => {
    const contact = await visibleContact(tx, auth.scope, contactId);
    const at = now();
    const change = await work(tx, contact, at);
    if (change.audit.length) {
      await updateContactRow(tx, contact, {
        changes: change.columns ?? {},
        at,
        detailKinds: change.detailKinds,
        searchChanged: change.searchChanged,
        searchAdded: change.searchAdded,
      });
      await recordChange(tx, {
        contactIds: [contact.id],
        memberId: auth.member.id,
        at,
        activity: change.activity,
        text: change.text,
        audit: change.audit,
      });
    }
    return change.result;
  });
}
