import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useState } from 'react';
import { useSignOut } from '../../api/auth';
import { MenuButton } from '../../components/ui/menu';
import { PasswordDialog } from '../../features/members/password-dialog';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { useSession } from '../../features/auth/use-session';
import { errorMessage } from '../../lib/api-client';
import type { MemberRecord } from '../../../server/contracts/members';
import { RunningSessionBanner } from './running-session-banner';

type NavItem = { to: string; label: string };

/** What each role may open: the catalogs are the vendor's; managers see their team (read-only). */
function navItemsFor(role: MemberRecord['role']): NavItem[] {
  const items: NavItem[] = [
    { to: '/contacts', label: 'Contacts' },
    { to: '/calls', label: 'Calls' },
    { to: '/usage', label: 'Usage' },
    { to: '/trash', label: 'Trash' },
    { to: '/settings', label: 'Settings' },
  ];
  if (role === 'vendor') {
    items.push(
      { to: '/admin/tags', label: 'Tags' },
      { to: '/admin/custom-fields', label: 'Custom fields' },
      { to: '/admin/integrations', label: 'Integrations' },
    );
  }
  if (role === 'vendor' || role === 'manager') items.push({ to: '/admin/members', label: 'Members' });
  return items;
}

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** Everything behind sign-in: checks the session, then renders the header and the route. */
export function AppShell() {
  const { member, isPending, error, refetch } = useSession();
  const location = useLocation();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [changingPassword, setChangingPassword] = useState(false);

  if (isPending) {
    return (
      <div className="flex min-h-dvh items-center justify-center" aria-busy="true">
        <Spinner label="Loading Ringbook…" />
      </div>
    );
  }
  if (error) {
    return (
      <main className="px-4">
        <ErrorState title="Ringbook could not start" message={errorMessage(error)} onRetry={() => void refetch()} />
      </main>
    );
  }
  if (!member) {
    /* Signed out on purpose: a clean sign-in page. Session lost: come back here after signing in. */
    if (signOut.isSuccess || signOut.isError) return <Navigate to="/sign-in" replace />;
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`/sign-in?next=${next}`} replace />;
  }

  const displayName = member.display_name || [member.first_name, member.last_name].filter(Boolean).join(' ') || member.username;

  /* A failed sign-out is reported (and retried) by SignOutFailure: the session still lives on the server. */
  const handleSignOut = () => signOut.mutate();

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/95 backdrop-blur">
        {/* One row from 640 px; below, the navigation takes a row of its own (wrapping rather than hiding any item). */}
        <div className="flex flex-wrap items-center gap-x-6 px-4 sm:h-14 sm:flex-nowrap sm:px-6">
          <Link to="/contacts" className="flex h-14 items-center gap-2 rounded-md font-semibold tracking-tight text-zinc-900">
            <img src="/favicon.svg" alt="" className="size-7" />
            <span>Ringbook</span>
          </Link>
          <nav
            aria-label="Main"
            className="order-last -mx-4 w-[calc(100%+2rem)] border-t border-zinc-100 px-3 py-1.5 sm:order-none sm:mx-0 sm:w-auto sm:border-0 sm:p-0"
          >
            <ul className="flex flex-wrap items-center gap-1">
              {navItemsFor(member.role).map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      `block rounded-md px-2 py-1.5 text-sm font-medium whitespace-nowrap sm:px-3 ${isActive ? 'bg-indigo-50 text-indigo-700' : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900'}`
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex h-14 items-center gap-3">
            <div className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="flex size-8 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700"
              >
                {initials(displayName)}
              </span>
              <span className="hidden text-sm text-zinc-700 sm:inline" title={member.username}>
                <span className="sr-only">Signed in as </span>
                {displayName}
              </span>
            </div>
            <MenuButton
              label="Account"
              items={[
                { label: 'Change password…', onSelect: () => setChangingPassword(true) },
                { label: 'API reference', onSelect: () => void navigate('/developers') },
              ]}
            >
              <span aria-hidden="true">⚙</span>
            </MenuButton>
            <Button size="sm" onClick={handleSignOut} busy={signOut.isPending}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <RunningSessionBanner memberId={member.user_id} />
      <main id="main" tabIndex={-1} className="flex min-h-0 flex-1 flex-col focus:outline-none">
        <Outlet />
      </main>
      {changingPassword && (
        <PasswordDialog memberId={member.user_id} memberName={displayName} own onClose={() => setChangingPassword(false)} />
      )}
    </div>
  );
}
