import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf } from '../../server/contracts/common';
import type { AccessTokenRecord } from '../../server/contracts/oauth';
import { apiRequest } from '../lib/api-client';
import { tokenKeys } from './query-keys';

export { tokenKeys };

/** Personal access tokens: one's own, or (the vendor, entireTeam) every member's in the organisation. */
export const tokensQueryOptions = (entireTeam: boolean) =>
  queryOptions({
    queryKey: tokenKeys.list(entireTeam),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<{ tokens: ListOf<'tokens', AccessTokenRecord> }>('/rest/1/tokens', {
          signal,
          query: { entire_team: entireTeam || undefined },
        })
      ).tokens.tokens,
  });

function useTokenMutation<V, R>(request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }) });
}

/** Creates a named token: the answer holds the token itself, shown once. */
export const useCreateToken = () =>
  useTokenMutation(
    async (name: string) =>
      (await apiRequest<{ tokens: { tokens: AccessTokenRecord } }>('/rest/1/tokens', { method: 'POST', body: { name } })).tokens.tokens,
  );

export const useRevokeToken = () => useTokenMutation((id: string) => apiRequest<void>(`/rest/1/tokens/${id}`, { method: 'DELETE' }));
