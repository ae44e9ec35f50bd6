import type { Db } from '../db/database.js';
import type { Member } from '../db/schema.js';
import { vendorOnly } from '../lib/errors.js';
import { teamIdsWithHistory } from './auth.repository.js';

/**
 * Whose contacts a member may see and change: a vendor its whole organisation; anyone else itself and
 * the team beneath it (a member without a team: only itself).
 */
export type Scope = { kind: 'organisation'; orgId: number } | { kind: 'team'; orgId: number; memberIds: number[] };

/** Who is asking, how (a bearer token or the web app's session) and what they may reach. */
/** What a request was let in with: the SHA-256 of its session id or of its token (open streams re-check it). */
export type Credential = { kind: 'session' | 'token'; hash: string };

export type AuthContext = {
  member: Member;
  via: 'bearer' | 'session';
  scope: Scope;
  credential?: Credential;
  /**
   * The organisation's catalog version as read when the request was let in (a bearer token's look-up reads it in the
   * same statement): kept contact records are checked against it (record-cache.ts). Absent: read it when needed.
   */
  catalogVersion?: number;
};

export async function scopeFor(db: Db, member: Member): Promise<Scope> {
  if (member.role === 'vendor') return { kind: 'organisation', orgId: member.org_id };
  // Only managers and the vendor have reports (members.service refuses a plain member as manager_id).
  if (member.role === 'member') return { kind: 'team', orgId: member.org_id, memberIds: [member.id] };
  return { kind: 'team', orgId: member.org_id, memberIds: await teamIdsWithHistory(db, member.id) };
}

export function scopeIncludesMember(scope: Scope, member: Pick<Member, 'id' | 'org_id'>): boolean {
  if (member.org_id !== scope.orgId) return false;
  return scope.kind === 'organisation' || scope.memberIds.includes(member.id);
}

/** Whether a contact (its organisation and owner, as it is now) is within a scope: the one rule of who may reach whose contacts. */
export const reaches = (scope: Scope, contact: { org_id: number; owner_id: number }) =>
  scopeIncludesMember(scope, { id: contact.owner_id, org_id: contact.org_id });

export const isVendor = (member: Member) => member.role === 'vendor';

export function requireVendor(auth: AuthContext, action: string) {
  if (!isVendor(auth.member)) throw vendorOnly(`Only the organisation's vendor account can ${action}.`);
}
