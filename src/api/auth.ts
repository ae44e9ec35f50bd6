import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberRecord, SignInBody } from '../../server/contracts/members';
import { ApiError, apiRequest } from '../lib/api-client';

type SessionResponse = { http_status: number; status: 'success'; member: MemberRecord };

export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
};

/** The signed-in member, or null when there is no session (401). */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.session(),
    queryFn: async ({ signal }): Promise<MemberRecord | null> => {
      try {
        const body = await apiRequest<SessionResponse>('/auth/session', { signal, allowUnauthorized: true });
        return body.member;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SignInBody) =>
      apiRequest<SessionResponse>('/auth/login', { method: 'POST', body, allowUnauthorized: true }),
    onSuccess: (data) => {
      /* A different member may sign in on this browser: nothing cached may leak across sessions. */
      queryClient.clear();
      queryClient.setQueryData(authKeys.session(), data.member);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('/auth/logout', { method: 'POST', allowUnauthorized: true }),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(authKeys.session(), null);
    },
  });
}
