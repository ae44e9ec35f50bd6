import { queryOptions, useMutation } from '@tanstack/react-query';
import type { BulkAction, BulkJobRecord } from '../../server/contracts/bulk-jobs';
import { apiRequest } from '../lib/api-client';
import type { ContactListFilter } from './contacts';

type JobResponse = { http_status: number; status: 'success'; job: BulkJobRecord };

/** Which contacts a job changes: the ones picked, or every contact of the grid's filtered view. */
export type BulkSelection = { kind: 'ids'; ids: string[] } | { kind: 'filter'; filter: ContactListFilter };

export type BulkJobRequest = { action: BulkAction; selection: BulkSelection } & (
  | { action: 'add_tag'; tag: { id: number } | { title: string } }
  | { action: 'remove_tag'; tag: { id: number } }
  | { action: 'move'; folderId: string | null }
  | { action: 'transfer'; memberId: string }
  | { action: 'trash' }
);

export const bulkJobKeys = {
  all: ['bulk-jobs'] as const,
  job: (id: string) => [...bulkJobKeys.all, id] as const,
};

function bodyOf(request: BulkJobRequest): Record<string, unknown> {
  const { selection } = request;
  const body: Record<string, unknown> = {
    action: request.action,
    ...(selection.kind === 'ids' ? { contact_user_ids: selection.ids.map(Number) } : { filter: selection.filter }),
  };
  switch (request.action) {
    case 'add_tag':
      return { ...body, ...('id' in request.tag ? { tag_id: request.tag.id } : { tag: request.tag.title }) };
    case 'remove_tag':
      return { ...body, tag_id: request.tag.id };
    case 'move':
      return { ...body, folder_id: request.folderId ? Number(request.folderId) : 0 };
    case 'transfer':
      return { ...body, member_id: Number(request.memberId) };
    case 'trash':
      return body;
  }
}

/** Queues the job (202): the server works through it in chunks; follow it with bulkJobQueryOptions. */
export function useStartBulkJob() {
  return useMutation({
    mutationFn: async (request: BulkJobRequest) =>
      (await apiRequest<JobResponse>('/rest/1/bulkjobs', { method: 'POST', body: bodyOf(request) })).job,
  });
}

export const isFinished = (job: Pick<BulkJobRecord, 'status'>) => job.status === 'done' || job.status === 'failed';

/** A job's progress, asked again every half second until it is done or failed. */
export const bulkJobQueryOptions = (id: string) =>
  queryOptions({
    queryKey: bulkJobKeys.job(id),
    queryFn: async ({ signal }) => (await apiRequest<JobResponse>(`/rest/1/bulkjobs/${encodeURIComponent(id)}`, { signal })).job,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 500),
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
