import type { AuthContext, Scope } from '../../auth/access.js';
import { scopeIncludesMember } from '../../auth/access.js';
import { findMemberById } from '../../auth/auth.repository.js';
import { CONTACT_LIMIT, type ContactFilter } from '../../contracts/dial-sessions.js';
import type { Db } from '../../db/database.js';
import type { DialSession } from '../../db/schema.js';
import { unknownReference } from '../../lib/errors.js';
import { listContacts } from '../contacts/contact-list.repository.js';
import { recordRows } from '../contacts/contact-records.repository.js';
import { presentContacts } from '../contacts/contacts.service.js';
import type { CallbackParties } from './callback-bodies.js';
import { queueEntry } from './dial-sessions.repository.js';

/**
 * The contact at a queue position as its record shows it now, with the session's rep and the contact's owner;
 * undefined when the contact has been deleted for good meanwhile (its callbacks then have nothing to tell).
 */
export async function contactParties(tx: Db, session: DialSession, position: number): Promise<CallbackParties | undefined> {
  const entry = await queueEntry(tx, session.id, position);
  const [row] = await recordRows(tx, [entry.contact_id]);
  if (!row) return undefined;
  const [[contact], agent, owner] = await Promise.all([
    presentContacts(tx, [row]), findMemberById(tx, session.member_id), findMemberById(tx, row.owner_id),
  ]);
  return { contact: contact!, agent: agent!, owner };
}

/**
 * The caller's contacts a filter matches, as the contacts list orders them by default (newest first), up to what is
 * left of the session's limit. An owner filter narrows the caller's scope to that member, who must be in it.
 */
export async function filteredContactIds(db: Db, auth: AuthContext, filter: ContactFilter, already: number): Promise<number[]> {
  let scope: Scope = auth.scope;
  if (filter.owner_id !== undefined) {
    const owner = await findMemberById(db, filter.owner_id);
    if (!owner || !scopeIncludesMember(auth.scope, owner)) throw unknownReference('contact_filter.owner_id', `contact_filter.owner_id ${filter.owner_id} is not a member of your team.`);
    scope = { kind: 'team', orgId: auth.scope.orgId, memberIds: [owner.id] };
  }
  const limit = CONTACT_LIMIT - already;
  if (limit <= 0) return [];
  const { rows } = await listContacts(db, scope, {
    page: 1, page_size: limit, category_id: filter.category_id ?? undefined, folder_id: filter.folder_id ?? undefined, tag_id: filter.tag_id,
    search: filter.search, include_new: false, include_trashed: false, include_archived: false, sort_order: 'DESC', sort_by: 'date_added',
  });
  return rows.map((r) => r.id);
}
