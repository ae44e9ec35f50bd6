import { memberName, type TeamMember } from '../../api/members';

export type MemberNode = { member: TeamMember; children: MemberNode[] };

const ROLE_RANK = { vendor: 0, manager: 1, member: 2 } as const;

/** The team as a tree by manager_id; whoever's manager is not listed (the caller) is a root. Managers before reps, then by name. */
export function buildTree(members: TeamMember[]): MemberNode[] {
  const ids = new Set(members.map((m) => m.user_id));
  const byManager = new Map<string, TeamMember[]>();
  for (const m of members) {
    const key = m.manager_id && ids.has(m.manager_id) ? m.manager_id : '';
    byManager.set(key, [...(byManager.get(key) ?? []), m]);
  }
  const order = (a: TeamMember, b: TeamMember) => ROLE_RANK[a.role] - ROLE_RANK[b.role] || memberName(a).localeCompare(memberName(b));
  const nodesOf = (key: string, seen: Set<string>): MemberNode[] =>
    (byManager.get(key) ?? [])
      .filter((m) => !seen.has(m.user_id))
      .sort(order)
      .map((m) => ({ member: m, children: nodesOf(m.user_id, new Set([...seen, m.user_id])) }));
  return nodesOf('', new Set());
}

/** A member and everyone beneath it: who cannot become its manager. */
export function subtreeIds(members: TeamMember[], id: string): Set<string> {
  const result = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const m of members) {
      if (m.manager_id && result.has(m.manager_id) && !result.has(m.user_id)) {
        result.add(m.user_id);
        grew = true;
      }
    }
  }
  return result;
}

export const ROLE_LABELS = { vendor: 'Vendor', manager: 'Manager', member: 'Rep' } as const;

/** Who can lead a team: the vendor and the managers. */
export const leaders = (members: TeamMember[]) => members.filter((m) => m.role !== 'member');
