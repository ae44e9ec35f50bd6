import { type AuthContext, reaches, type Scope } from '../../auth/access.js';
import { findMemberOfRecord } from '../../auth/auth.repository.js';
import { type ContactFilter, listQueryOf } from '../../contracts/contacts.js';
import { CONTACT_LIMIT } from '../../contracts/dial-sessions.js';
import type { Db } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import { listContacts, nextIdsOfList } from '../contacts/contact-list.repository.js';
import { recordRows } from '../contacts/contact-records.repository.js';
import { presentContacts, scopeOfOwner } from '../contacts/contacts.service.js';
import type { CallbackParties } from './callback-bodies.js';
import { queueEntry } from './dial-sessions.repository.js';

/**
 * The contact at a queue position as its record shows it now, with the session's rep and the contact's owner;
 * undefined when the contact has been deleted for good meanwhile (its callbacks then have nothing to tell). A contact
 * that has left the rep's reach (`scope`) is `withheld`: its callbacks say which contact and number, nothing of it now.
 */
export async function contactParties(tx: Db, session: DialSession, position: number, scope: Scope): Promise<CallbackParties | undefined> {
  const entry = await queueEntry(tx, session.id, position);
  const [row] = await recordRows(tx, [entry.contact_id]);
  if (!row) return undefined;
  const agent = (await findMemberOfRecord(tx, session.member_id))!;
  if (!reaches(scope, { org_id: session.org_id, owner_id: row.owner_id }))
    return { contact: { withheld: true, contact_user_id: String(row.id), lead_id: row.lead_id }, agent, owner: undefined };
  const [[contact], owner] = await Promise.all([presentContacts(tx, [row]), findMemberOfRecord(tx, row.owner_id)]);
  return { contact: contact!, agent, owner };
}

/**
 * The caller's contacts a filter matches, in the order the contacts list gives them for the filter's sort (newest
 * first by default), up to what is left of the session's limit: "Dial all" dials the grid's rows as the grid shows them.
 */
export async function filteredContactIds(db: Db, auth: AuthContext, filter: ContactFilter, already: number): Promise<number[]> {
  const limit = CONTACT_LIMIT - already;
  if (limit <= 0) return [];
  const scope = await scopeOfOwner(db, auth, filter.owner_id, 'contact_filter.owner_id');
  const query = listQueryOf(filter, limit);
  if (query.sort_by === 'date_added' && query.sort_order === 'DESC') return nextIdsOfList(db, scope, query, undefined, limit);
  return (await listContacts(db, scope, query)).rows.map((r) => r.id);
}
