import { queryOptions, useMutation, useQueryClient, type MutateOptions, type QueryClient } from '@tanstack/react-query';
import type { MemberRecord, SignInBody } from '../../server/contracts/members';
import { ApiError, apiRequest } from '../lib/api-client';

type SessionResponse = { http_status: number; status: 'success'; member: MemberRecord };

export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
  signOut: () => [...authKeys.all, 'sign-out'] as const,
};

/**
 * The signed-in member, or null when there is no session (401). Once a member is known in this tab, a 401 is a
 * session that ended under the user: it goes through the app's sign-in-again prompt like any other request, so a
 * background refetch cannot drop the user (and an unsaved form) onto the sign-in page.
 */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.session(),
    queryFn: async ({ signal, client }): Promise<MemberRecord | null> => {
      const known = Boolean(client.getQueryData(authKeys.session()));
      try {
        const body = await apiRequest<SessionResponse>('/auth/session', { signal, allowUnauthorized: !known });
        return body.member;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

/**
 * A new session (or none): nothing cached from the last one may survive. The session's own entry is set first,
 * so every screen watching it (the shell, the sign-in page) hears of the change; then all else is dropped.
 */
export function startOver(queryClient: QueryClient, member: MemberRecord | null): void {
  queryClient.setQueryData(authKeys.session(), member);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
  queryClient.removeQueries({ queryKey: authKeys.all, predicate: (query) => query.queryKey[1] !== 'session' });
}

const postSignIn = async (body: SignInBody) =>
  (await apiRequest<SessionResponse>('/auth/login', { method: 'POST', body, allowUnauthorized: true })).member;

/** Sign-in from the sign-in page: a fresh start, nothing cached from before survives. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postSignIn,
    /* A different member may sign in on this browser: nothing cached may leak across sessions. */
    onSuccess: (member) => startOver(queryClient, member),
  });
}

/**
 * Signing in again in place, after the session ended mid-work: the same member, so what is cached and what is
 * typed stays; requests waiting for the session are sent again by the caller.
 */
export function useResumeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postSignIn,
    onSuccess: (member) => {
      const before = queryClient.getQueryData<MemberRecord | null>(authKeys.session());
      if (before && before.user_id !== member.user_id) startOver(queryClient, member);
      else queryClient.setQueryData(authKeys.session(), member);
    },
  });
}

/**
 * Ends the session on the server. Only an answer from the server counts: a 204, or a 401 (no session there any
 * more). A failure to reach it leaves everything as it is: the session may live on, so the app must not claim
 * otherwise (SignOutFailure in features/auth offers to try again).
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: authKeys.signOut(),
    mutationFn: async () => {
      try {
        await apiRequest<void>('/auth/logout', { method: 'POST', allowUnauthorized: true });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    onSuccess: () => startOver(queryClient, null),
  });
  /* A failure is shown once, by SignOutFailure; a caller's own message could only contradict it. */
  const mutate = (variables: void, options?: MutateOptions<void, Error, void>) =>
    mutation.mutate(variables, { onSuccess: options?.onSuccess, onSettled: options?.onSettled });
  return { ...mutation, mutate };
}
