import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf } from '../../server/contracts/common';
import type { VoicemailRecord } from '../../server/contracts/voicemails';
import { ApiError, apiRequest, buildUrl } from '../lib/api-client';
import { voicemailKeys } from './query-keys';

export { voicemailKeys };
export type { VoicemailRecord };
export { VOICEMAIL_LIMITS } from '../../server/contracts/voicemails';

type ListResponse = { voicemails: ListOf<'voicemails', VoicemailRecord> };
type OneResponse = { voicemails: VoicemailRecord };

/** The organisation's voicemail library (every recording; the API answers them all on one page). */
export const voicemailsQueryOptions = () =>
  queryOptions({
    queryKey: voicemailKeys.list(),
    queryFn: async ({ signal }) => (await apiRequest<ListResponse>('/rest/1/voicemails', { signal })).voicemails.voicemails ?? [],
  });

export const voicemailAudioUrl = (id: string) => `/rest/1/voicemails/${encodeURIComponent(id)}/audio`;

function errorOfXhr(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { debug_codes?: ApiError['debugCodes'] };
    if (body.debug_codes?.length) return new ApiError(xhr.status, body.debug_codes);
  } catch {
    /* not JSON: fall through */
  }
  return new ApiError(xhr.status, [{ code: xhr.status * 100, reason: `The upload failed (${xhr.status}).` }]);
}

export type Upload = { name: string; audio: Blob; onProgress?: (sent: number, total: number) => void };

/*
 * The audio is the request body itself (POST /rest/1/voicemails?name=...). Sent with XMLHttpRequest, which reports
 * upload progress (fetch does not).
 */
function sendUpload({ name, audio, onProgress }: Upload): Promise<VoicemailRecord> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl('/rest/1/voicemails', { name }));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Ringbook-Request', '1');
    xhr.setRequestHeader('Content-Type', audio.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : audio.size);
    xhr.onload = () => (xhr.status === 201 ? resolve((JSON.parse(xhr.responseText) as OneResponse).voicemails) : reject(errorOfXhr(xhr)));
    xhr.onerror = () => reject(new TypeError('The server could not be reached.'));
    xhr.send(audio);
  });
}

function useVoicemailMutation<V, R>(request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => queryClient.invalidateQueries({ queryKey: voicemailKeys.all }) });
}

export const useUploadVoicemail = () => useVoicemailMutation(sendUpload);

export const useRenameVoicemail = () =>
  useVoicemailMutation(
    async ({ id, name }: { id: string; name: string }) =>
      (await apiRequest<OneResponse>(`/rest/1/voicemails/${encodeURIComponent(id)}`, { method: 'PUT', body: { name } })).voicemails,
  );

export const useDeleteVoicemail = () =>
  useVoicemailMutation((id: string) => apiRequest<void>(`/rest/1/voicemails/${encodeURIComponent(id)}`, { method: 'DELETE' }));
