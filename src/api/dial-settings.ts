/*
 * The member's dial settings and the organisation's recording settings (GET and PUT /rest/1/dialsession/settings), and
 * the message library the settings name a message of (GET /rest/1/content).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DialSettingsRecord } from '../../server/contracts/dial-settings';
import { apiRequest } from '../lib/api-client';
import { messagesQueryOptions } from './content';

type SettingsResponse = { settings: { settings: DialSettingsRecord } };
export type LibraryMessage = { message_id: string; display_name: string; system_message: 0 | 1; type: string };

export const dialSettingsKeys = {
  all: ['dial-settings'] as const,
  settings: () => [...dialSettingsKeys.all, 'settings'] as const,
};

export const dialSettingsQueryOptions = () =>
  queryOptions({
    queryKey: dialSettingsKeys.settings(),
    queryFn: async ({ signal }) => (await apiRequest<SettingsResponse>('/rest/1/dialsession/settings', { signal })).settings.settings,
  });

/** The messages a setting may name: the organisation's own and the system's (the message library's query). */
export const libraryMessagesQueryOptions = messagesQueryOptions;

/** The keys to change, as the API takes them; answers the settings as saved (and keeps them as the query's data). */
export function useSaveDialSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: Record<string, string | number | null>) =>
      (await apiRequest<SettingsResponse>('/rest/1/dialsession/settings', { method: 'PUT', body: changes })).settings.settings,
    onSuccess: (settings) => queryClient.setQueryData(dialSettingsKeys.settings(), settings),
  });
}
