import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf } from '../../server/contracts/common';
import type { CreateMemberBody, MemberRecord } from '../../server/contracts/members';
import { apiRequest } from '../lib/api-client';
import { contactKeys, memberKeys } from './query-keys';

type MembersResponse = { members: ListOf<'members', MemberRecord> };

export type TeamMember = MemberRecord & { contact_count: number };

export { memberKeys };

/**
 * The caller and everyone beneath it (entire_team=1), each with its number of active contacts; `withRemoved`, the
 * members removed since too (with their date_removed), whose calls and figures stay and are named by them.
 */
export const teamQueryOptions = (withRemoved = false) =>
  queryOptions({
    queryKey: memberKeys.team(withRemoved),
    queryFn: async ({ signal }) => {
      const members: TeamMember[] = [];
      for (let page = 1; ; page++) {
        const body = await apiRequest<MembersResponse>('/rest/1/members', {
          signal,
          query: { entire_team: 1, with_counts: 1, page, page_size: 100, ...(withRemoved ? { include_removed: 1 } : {}) },
        });
        members.push(...body.members.members.map((m) => ({ ...m, contact_count: Number(m.contact_count ?? 0) })));
        if (page >= body.members.total_pages) break;
      }
      return members;
    },
    staleTime: 60_000,
  });

export function memberName(member: Pick<MemberRecord, 'display_name' | 'first_name' | 'last_name' | 'username'>): string {
  return member.display_name || [member.first_name, member.last_name].filter(Boolean).join(' ') || member.username;
}

export type MemberUpdate = {
  first_name?: string;
  last_name?: string;
  email_address?: string;
  phone?: string;
  manager_id?: string;
  role?: 'manager' | 'member';
};

/** Members own contacts: a change of name shows on contact records, a deletion moves contacts. */
function useMemberMutation<V>(request: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: memberKeys.all }),
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      ]),
  });
}

export const useCreateMember = () =>
  useMemberMutation((body: CreateMemberBody) => apiRequest<unknown>('/rest/1/members', { method: 'POST', body }));

export const useUpdateMember = () =>
  useMemberMutation(({ id, ...body }: MemberUpdate & { id: string }) =>
    apiRequest<unknown>(`/rest/1/members/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  );

/** Deletes a member; its contacts go to `moveContactsTo` (default: the member above it), its team to the member above. */
export const useDeleteMember = () =>
  useMemberMutation(({ id, moveContactsTo }: { id: string; moveContactsTo: string | null }) =>
    apiRequest<void>(`/rest/1/members/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      query: { move_contacts_to: moveContactsTo ?? undefined },
    }),
  );

/**
 * Sets a member's password. One's own change gives the current password; the vendor's change of another's does not.
 * The member's other web sessions end (the one making the change stays signed in).
 */
export const useChangePassword = () =>
  useMutation({
    mutationFn: ({ id, ...body }: { id: string; current_password?: string; password: string }) =>
      apiRequest<void>(`/rest/1/members/${encodeURIComponent(id)}/password`, { method: 'PUT', body }),
  });

/** Revokes a member's personal access token and issues the next one (the web app never sees either). */
export const useRotateToken = () =>
  useMutation({
    mutationFn: ({ id }: { id: string }) => apiRequest<unknown>(`/rest/1/members/${encodeURIComponent(id)}/token`, { method: 'POST' }),
  });
