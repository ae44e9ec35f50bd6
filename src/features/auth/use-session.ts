import { useQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../api/auth';

/** The signed-in member: `member` is null when signed out, undefined while the check runs. */
export function useSession() {
  const query = useQuery(sessionQueryOptions());
  return { member: query.data, isPending: query.isPending, error: query.error, refetch: query.refetch };
}
