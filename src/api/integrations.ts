import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf } from '../../server/contracts/common';
import type {
  ConnectionRecord,
  ConsentBody,
  ConsentInfo,
  CreateIntegrationBody,
  IntegrationRecord,
  UpdateIntegrationBody,
} from '../../server/contracts/oauth';
import { apiRequest } from '../lib/api-client';
import { integrationKeys } from './query-keys';

export { integrationKeys };

type ListResponse<K extends string, T> = Record<K, ListOf<K, T>>;
type OneResponse = { integrations: { integrations: IntegrationRecord } };

/** The organisation's integrations (the vendor's). */
export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: integrationKeys.list(),
    queryFn: async ({ signal }) =>
      (await apiRequest<ListResponse<'integrations', IntegrationRecord>>('/rest/1/integrations', { signal })).integrations.integrations,
  });

/** The integrations the signed-in member allowed. */
export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: integrationKeys.connections(),
    queryFn: async ({ signal }) =>
      (await apiRequest<ListResponse<'connections', ConnectionRecord>>('/rest/1/connections', { signal })).connections.connections,
  });

/** What the consent screen shows for an authorization request (its query string as given to /oauth/authorize). */
export const consentQueryOptions = (search: string) =>
  queryOptions({
    queryKey: integrationKeys.consent(search),
    queryFn: async ({ signal }) => (await apiRequest<{ consent: ConsentInfo }>(`/oauth/consent${search}`, { signal })).consent,
    staleTime: Infinity,
    retry: false,
  });

function useIntegrationMutation<V, R>(request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }) });
}

const one = async (path: string, method: 'POST' | 'PUT', body?: unknown) =>
  (await apiRequest<OneResponse>(path, { method, body })).integrations.integrations;

export const useCreateIntegration = () =>
  useIntegrationMutation((body: CreateIntegrationBody) => one('/rest/1/integrations', 'POST', body));

export const useUpdateIntegration = () =>
  useIntegrationMutation(({ id, ...body }: UpdateIntegrationBody & { id: string }) => one(`/rest/1/integrations/${id}`, 'PUT', body));

export const useRotateIntegrationSecret = () => useIntegrationMutation((id: string) => one(`/rest/1/integrations/${id}/secret`, 'POST'));

export const useDeleteIntegration = () =>
  useIntegrationMutation((id: string) => apiRequest<void>(`/rest/1/integrations/${id}`, { method: 'DELETE' }));

export const useDisconnect = () =>
  useIntegrationMutation((id: string) => apiRequest<void>(`/rest/1/connections/${id}`, { method: 'DELETE' }));

/** The member's decision on the consent screen: answers the address to send the browser to. */
export const useDecideConsent = () =>
  useMutation({
    mutationFn: async (body: ConsentBody) =>
      (await apiRequest<{ consent: { redirect_to: string } }>('/oauth/consent', { method: 'POST', body })).consent.redirect_to,
  });
