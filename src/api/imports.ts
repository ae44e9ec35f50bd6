/*
 * CSV import (docs/api.md, "Import"): upload the file as the request body, map its columns, preview, dry run, run as a
 * job, download the refused rows, undo. The job is followed by asking for the import again while it runs.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, buildUrl } from '../lib/api-client';
import type {
  ImportDetail,
  ImportDuplicates,
  ImportMapping,
  ImportRecord,
  NotRestoredRecord,
  PreviewRow,
  SavedMapping,
  SavedMappingRecord,
} from './import-types';
import { contactKeys, folderKeys, tagKeys } from './query-keys';

export type * from './import-types';

export const importKeys = {
  all: ['imports'] as const,
  list: () => [...importKeys.all, 'list'] as const,
  one: (id: string | number) => [...importKeys.all, 'one', String(id)] as const,
  preview: (id: string | number, settings: object) => [...importKeys.all, 'preview', String(id), settings] as const,
  notRestored: (id: string | number) => [...importKeys.all, 'not-restored', String(id)] as const,
  mappings: () => [...importKeys.all, 'mappings'] as const,
};

const path = (id: string | number, rest = '') => `/rest/1/imports/${encodeURIComponent(id)}${rest}`;

/** One import or a saved mapping comes in the success envelope, under its own key. */
type OneImport = { import: ImportDetail };

/** While the server works on it, an import is asked for again (its counts and rows done move). */
export const isWorking = (status: ImportRecord['status']) => status === 'queued' || status === 'running' || status === 'undoing';

export const importsQueryOptions = () =>
  queryOptions({
    queryKey: importKeys.list(),
    queryFn: async ({ signal }) => (await apiRequest<{ data: ImportRecord[] }>('/rest/1/imports', { signal })).data,
    refetchInterval: (query) => (query.state.data?.some((i) => isWorking(i.status)) ? 2000 : false),
  });

/** One import, asked again every half second while it is queued, running or being undone. */
export const importQueryOptions = (id: string | number) =>
  queryOptions({
    queryKey: importKeys.one(id),
    queryFn: async ({ signal }) => (await apiRequest<OneImport>(path(id), { signal })).import,
    refetchInterval: (query) => (query.state.data && isWorking(query.state.data.status) ? 500 : false),
    refetchIntervalInBackground: true,
    staleTime: 0,
  });

export const notRestoredQueryOptions = (id: string | number) =>
  queryOptions({
    queryKey: importKeys.notRestored(id),
    queryFn: async ({ signal }) => (await apiRequest<{ data: NotRestoredRecord[] }>(path(id, '/not-restored'), { signal })).data,
  });

export const savedMappingsQueryOptions = () =>
  queryOptions({
    queryKey: importKeys.mappings(),
    queryFn: async ({ signal }) => (await apiRequest<{ data: SavedMappingRecord[] }>('/rest/1/import-mappings', { signal })).data,
    staleTime: 60_000,
  });

/** The refused rows as CSV: the original columns and a "Reason" column (a plain link: the browser streams it). */
export const refusedCsvUrl = (id: string | number) => path(id, '/refused.csv');

function errorOfXhr(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { debug_codes?: ApiError['debugCodes'] };
    if (body.debug_codes?.length) return new ApiError(xhr.status, body.debug_codes);
  } catch {
    /* not JSON: fall through */
  }
  const reason = xhr.status === 413 ? 'The file is too large to import.' : `The upload failed (${xhr.status}).`;
  return new ApiError(xhr.status, [{ code: xhr.status * 100, reason }]);
}

export type ImportUpload = { file: File; onProgress?: (sent: number, total: number) => void; signal?: AbortSignal };

/*
 * The file is the request body itself (POST /rest/1/imports?filename=...), sent with XMLHttpRequest, which reports
 * upload progress (fetch does not).
 */
function sendUpload({ file, onProgress, signal }: ImportUpload): Promise<ImportDetail> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl('/rest/1/imports', { filename: file.name }));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Ringbook-Request', '1');
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => (xhr.status === 201 ? resolve((JSON.parse(xhr.responseText) as OneImport).import) : reject(errorOfXhr(xhr)));
    xhr.onerror = () => reject(new TypeError('The server could not be reached.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

export function useUploadImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendUpload,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importKeys.list() }),
  });
}

export type ImportSettings = { mapping: ImportMapping; duplicates: ImportDuplicates };

/** The first rows as they will be stored under these settings (a POST that writes nothing: read as a query). */
export const previewQueryOptions = (id: string | number, settings: ImportSettings) =>
  queryOptions({
    queryKey: importKeys.preview(id, settings),
    queryFn: async ({ signal }) =>
      (await apiRequest<{ rows: PreviewRow[] }>(path(id, '/preview'), { method: 'POST', body: settings, signal })).rows,
    staleTime: 30_000,
  });

/** Writes the answer of a run or an undo (202, the import queued) where the import's query reads it. */
function useImportAction<V>(id: string | number, request: (vars: V) => Promise<ImportDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (record) => {
      queryClient.setQueryData(importKeys.one(id), record);
      void queryClient.invalidateQueries({ queryKey: importKeys.list() });
    },
  });
}

export const useRunImport = (id: string | number) =>
  useImportAction(id, (settings: ImportSettings & { dry_run: boolean }) =>
    apiRequest<OneImport>(path(id, '/run'), { method: 'POST', body: settings }).then((r) => r.import),
  );

export const useUndoImport = (id: string | number) =>
  useImportAction(id, () => apiRequest<OneImport>(path(id, '/undo'), { method: 'POST' }).then((r) => r.import));

/** Once an import (or its undo) has written contacts, the grid, the folders' and the tags' counts change. */
export async function refreshAfterImport(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: contactKeys.all }),
    queryClient.invalidateQueries({ queryKey: folderKeys.all }),
    queryClient.invalidateQueries({ queryKey: tagKeys.all }),
    queryClient.invalidateQueries({ queryKey: importKeys.list() }),
  ]);
}

export function useDeleteMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>(`/rest/1/import-mappings/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importKeys.mappings() }),
  });
}

export function useSaveMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; mapping: SavedMapping }) =>
      (await apiRequest<{ import_mapping: SavedMappingRecord }>('/rest/1/import-mappings', { method: 'POST', body })).import_mapping,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importKeys.mappings() }),
  });
}
