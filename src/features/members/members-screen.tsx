import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { memberName, teamQueryOptions, useUpdateMember, type TeamMember } from '../../api/members';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { InlineError } from '../../components/ui/form-error';
import { MenuButton, type MenuItem } from '../../components/ui/menu';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { DeleteMemberDialog, MoveMemberDialog, ReplaceTokenDialog } from './member-change-dialogs';
import { PasswordDialog } from './password-dialog';
import { EditMemberDialog, NewMemberDialog } from './member-form-dialog';
import { buildTree, ROLE_LABELS, type MemberNode } from './member-tree';

const roleBadge = {
  vendor: 'bg-indigo-100 text-indigo-800',
  manager: 'bg-amber-100 text-amber-900',
  member: 'bg-zinc-100 text-zinc-700',
} as const;

function MemberRow({ node, actionsFor }: { node: MemberNode; actionsFor: ((m: TeamMember) => MenuItem[]) | null }) {
  const { member, children } = node;
  const name = memberName(member);
  return (
    <li>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md px-2 py-2 hover:bg-zinc-50">
        <span className="font-medium text-zinc-900">{name}</span>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${roleBadge[member.role]}`}>{ROLE_LABELS[member.role]}</span>
        <span className="text-sm text-zinc-500">{member.username}</span>
        <span className="hidden text-sm text-zinc-500 sm:inline">{member.email_address}</span>
        <span className="ml-auto text-sm text-zinc-700 tabular-nums">{formatCount(member.contact_count, 'contact', 'contacts')}</span>
        {actionsFor && <MenuButton label={`Actions for ${name}`} items={actionsFor(member)} />}
      </div>
      {children.length > 0 && (
        <ul aria-label={`Team of ${name}`} className="ml-4 border-l border-zinc-200 pl-3">
          {children.map((child) => (
            <MemberRow key={child.member.user_id} node={child} actionsFor={actionsFor} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The team tree with each member's contacts; the vendor adds, edits, moves, promotes and deletes members. */
export function MembersScreen() {
  const { member: me } = useSession();
  const team = useQuery(teamQueryOptions());
  const setRole = useUpdateMember();
  const { announce } = useStatus();
  const [creatingUnder, setCreatingUnder] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [settingPassword, setSettingPassword] = useState<TeamMember | null>(null);
  const [replacingToken, setReplacingToken] = useState<TeamMember | null>(null);
  const isVendor = me?.role === 'vendor';
  const members = team.data ?? [];
  /* Dialogs read the member from the team, which opening one reads again: counts and places are current. */
  const memberOf = (id: string | null) => members.find((m) => m.user_id === id) ?? null;
  const open = (set: (id: string) => void) => (m: TeamMember) => () => {
    set(m.user_id);
    void team.refetch();
  };
  const [edit, move, remove] = [open(setEditing), open(setMoving), open(setDeleting)];

  useEffect(() => {
    document.title = 'Members · Ringbook';
  }, []);

  const changeRole = (m: TeamMember, role: 'manager' | 'member') =>
    setRole.mutate(
      { id: m.user_id, role },
      { onSuccess: () => announce(`${memberName(m)} is now a ${role === 'manager' ? 'manager' : 'rep'}`) },
    );

  const access = (m: TeamMember): MenuItem[] => [
    { label: 'Set a new password…', onSelect: () => setSettingPassword(m) },
    { label: 'Replace API token…', onSelect: () => setReplacingToken(m) },
  ];
  const actionsFor = (m: TeamMember): MenuItem[] => {
    if (m.role === 'vendor')
      return [
        { label: 'Edit details…', onSelect: edit(m) },
        { label: 'Replace API token…', onSelect: () => setReplacingToken(m) },
      ];
    const hasTeam = members.some((x) => x.manager_id === m.user_id);
    return [
      { label: 'Edit details…', onSelect: edit(m) },
      ...access(m),
      { label: 'Move to another manager…', onSelect: move(m) },
      m.role === 'manager'
        ? {
            label: 'Make a rep',
            onSelect: () => changeRole(m, 'member'),
            disabled: hasTeam,
            disabledReason: 'A manager with a team stays a manager until the team has moved to another manager.',
          }
        : { label: 'Make a manager', onSelect: () => changeRole(m, 'manager') },
      ...(m.role === 'manager' ? [{ label: 'Add a member to this team…', onSelect: () => setCreatingUnder(m.user_id) }] : []),
      { label: 'Delete…', onSelect: remove(m), tone: 'danger' as const },
    ];
  };

  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-5 sm:px-6">
      <PageHeader
        title="Members"
        description={
          isVendor
            ? 'Your organisation’s team: who reports to whom, and how many contacts each owns.'
            : 'Your team and the contacts each member owns. Only the vendor changes members.'
        }
        actions={
          isVendor && (
            <Button variant="primary" onClick={() => setCreatingUnder(me.user_id)}>
              New member
            </Button>
          )
        }
      />
      <InlineError error={setRole.error} />
      <section aria-label="Team" aria-busy={team.isFetching} className="rounded-lg border border-zinc-200 bg-white p-2 shadow-sm">
        {team.isPending && (
          <div className="flex justify-center py-12">
            <Spinner label="Loading members…" />
          </div>
        )}
        {team.isError && (
          <ErrorState
            title="Members could not be loaded"
            message={errorMessage(team.error)}
            onRetry={() => void team.refetch()}
            retrying={team.isFetching}
          />
        )}
        {team.isSuccess && (
          <ul aria-label="Team tree">
            {buildTree(members).map((node) => (
              <MemberRow key={node.member.user_id} node={node} actionsFor={isVendor ? actionsFor : null} />
            ))}
          </ul>
        )}
        {team.isSuccess && members.length === 1 && <p className="px-2 py-3 text-sm text-zinc-500">No one else is on the team yet.</p>}
      </section>
      <NewMemberDialog managerId={creatingUnder} team={members} onClose={() => setCreatingUnder(null)} />
      <EditMemberDialog member={memberOf(editing)} onClose={() => setEditing(null)} />
      <MoveMemberDialog member={memberOf(moving)} team={members} onClose={() => setMoving(null)} />
      <DeleteMemberDialog member={memberOf(deleting)} team={members} onClose={() => setDeleting(null)} />
      {settingPassword && (
        <PasswordDialog
          memberId={settingPassword.user_id}
          memberName={memberName(settingPassword)}
          own={false}
          onClose={() => setSettingPassword(null)}
        />
      )}
      <ReplaceTokenDialog member={replacingToken} onClose={() => setReplacingToken(null)} />
    </div>
  );
}
