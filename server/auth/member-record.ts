import type { MemberRecord } from '../contracts/members.js';
import type { Member } from '../db/schema.js';
import { timestampOrZero } from '../lib/time.js';

export const displayName = (m: Pick<Member, 'first_name' | 'last_name' | 'username'>) =>
  `${m.first_name} ${m.last_name}`.trim() || m.username;

/** The contract's Member record. `bearerToken` is given only when the caller may see it (never to a browser). */
export function toMemberRecord(member: Member, bearerToken?: string): MemberRecord {
  return {
    user_id: String(member.id),
    username: member.username,
    first_name: member.first_name,
    last_name: member.last_name,
    email_address: member.email,
    date_added: timestampOrZero(member.created_at),
    phone: member.phone || null,
    display_name: displayName(member),
    billing_item_id: member.billing_item_id,
    subscription_status: member.subscription_status,
    role: member.role,
    manager_id: member.parent_id === null ? null : String(member.parent_id),
    ...(member.removed_at === null ? {} : { date_removed: timestampOrZero(member.removed_at) }),
    ...(bearerToken === undefined ? {} : { oauth: { bearer_token: bearerToken } }),
  };
}
