import { queryOptions } from '@tanstack/react-query';
import type { MemberRecord } from '../../server/contracts/members';
import { apiRequest } from '../lib/api-client';

type MeResponse = { http_status: number; status: 'success'; members: { members: MemberRecord } };

export const memberKeys = {
  all: ['members'] as const,
  me: () => [...memberKeys.all, 'me'] as const,
};

export const meQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.me(),
    queryFn: async ({ signal }) => (await apiRequest<MeResponse>('/rest/1/members/me', { signal })).members.members,
    staleTime: 5 * 60_000,
  });
