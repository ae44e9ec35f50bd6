/*
 * The message library: GET /rest/1/content (the organisation's messages and the system's), and the member's own
 * messages through the extension routes POST /rest/1/content, PUT and DELETE /rest/1/content/{message_id}.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContentRecord } from '../../server/contracts/content';
import { apiRequest } from '../lib/api-client';
import { contentKeys } from './query-keys';

export { contentKeys };
export type { ContentRecord };
export { MERGE_FIELDS, MESSAGE_LIMITS } from '../../server/contracts/content';

type ListResponse = { content: { emails: ContentRecord[] } };
type OneResponse = { content: ContentRecord };
export type MessageFields = { display_name: string; description: string; subject: string; body: string };

/** Every message the member may use: the organisation's (its own among them) and the system's. */
export const messagesQueryOptions = () =>
  queryOptions({
    queryKey: contentKeys.list(),
    queryFn: async ({ signal }) => (await apiRequest<ListResponse>('/rest/1/content', { signal, query: { list: 'both' } })).content.emails,
  });

function useContentMutation<V, R>(request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.all }) });
}

export const useCreateMessage = () =>
  useContentMutation(
    async (fields: MessageFields) => (await apiRequest<OneResponse>('/rest/1/content', { method: 'POST', body: fields })).content,
  );

export const useUpdateMessage = () =>
  useContentMutation(
    async ({ id, fields }: { id: string; fields: MessageFields }) =>
      (await apiRequest<OneResponse>(`/rest/1/content/${encodeURIComponent(id)}`, { method: 'PUT', body: fields })).content,
  );

export const useDeleteMessage = () =>
  useContentMutation((id: string) => apiRequest<void>(`/rest/1/content/${encodeURIComponent(id)}`, { method: 'DELETE' }));
