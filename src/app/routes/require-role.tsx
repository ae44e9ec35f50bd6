import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { MemberRecord } from '../../../server/contracts/members';
import { EmptyState } from '../../components/ui/empty-state';
import { useSession } from '../../features/auth/use-session';

type Role = MemberRecord['role'];

/** Screens for some roles: others are told why they cannot use it (the API would refuse them anyway). */
export function RequireRole({ roles, why, children }: { roles: Role[]; why: string; children: ReactNode }) {
  const { member } = useSession();
  if (member && roles.includes(member.role)) return children;
  return (
    <EmptyState
      title="Not available to you"
      action={
        <Link
          to="/contacts"
          className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
        >
          Go to contacts
        </Link>
      }
    >
      {why}
    </EmptyState>
  );
}
