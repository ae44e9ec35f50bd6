import { useEffect, useId, useState } from 'react';
import { memberName, useDeleteMember, useRotateToken, useUpdateMember, type TeamMember } from '../../api/members';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog } from '../../components/ui/dialog';
import { SelectField } from '../../components/ui/field';
import { InlineError } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';
import { leaders, ROLE_LABELS, subtreeIds } from './member-tree';

const nameOf = (team: TeamMember[], id: string | null) => {
  const m = team.find((x) => x.user_id === id);
  return m ? memberName(m) : 'the member above';
};

/** Puts a member (and its team) under another manager or the vendor; not under itself or anyone beneath it. */
export function MoveMemberDialog({ member, team, onClose }: { member: TeamMember | null; team: TeamMember[]; onClose: () => void }) {
  const update = useUpdateMember();
  const { announce } = useStatus();
  const formId = useId();
  const [target, setTarget] = useState('');
  useEffect(() => {
    setTarget(member?.manager_id ?? '');
    update.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh choice for each member (not when the team is read again)
  }, [member?.user_id]);
  const excluded = member ? subtreeIds(team, member.user_id) : new Set<string>();
  const options = leaders(team)
    .filter((m) => !excluded.has(m.user_id))
    .map((m) => ({ value: m.user_id, label: `${memberName(m)} (${ROLE_LABELS[m.role]})` }));

  return (
    <Dialog
      open={member !== null}
      onClose={onClose}
      title={member ? `Move ${memberName(member)} to another manager` : ''}
      size="sm"
      preventClose={update.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={update.isPending} disabled={!target || target === member?.manager_id}>
            Move member
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!member) return;
          update.mutate(
            { id: member.user_id, manager_id: target },
            {
              onSuccess: () => {
                announce(`${memberName(member)} now reports to ${nameOf(team, target)}`);
                onClose();
              },
            },
          );
        }}
      >
        <SelectField
          label="New manager"
          options={options}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          hint="Their own team, if any, moves with them."
        />
        <InlineError error={update.error} />
      </form>
    </Dialog>
  );
}

/** Deletes a member: its contacts go to the member chosen (by default the one above it), its team to the member above. */
export function DeleteMemberDialog({ member, team, onClose }: { member: TeamMember | null; team: TeamMember[]; onClose: () => void }) {
  const remove = useDeleteMember();
  const { announce } = useStatus();
  const [heir, setHeir] = useState('');
  useEffect(() => {
    setHeir(member?.manager_id ?? '');
    remove.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh choice for each member (not when the team is read again)
  }, [member?.user_id]);
  if (!member) return null;

  const reports = team.filter((m) => m.manager_id === member.user_id);
  const contacts = formatCount(member.contact_count, 'contact', 'contacts');
  const options = team
    .filter((m) => m.user_id !== member.user_id)
    .map((m) => ({ value: m.user_id, label: `${memberName(m)}${m.user_id === member.manager_id ? ' (their manager)' : ''}` }));

  return (
    <ConfirmDialog
      open
      title={`Delete the member ${memberName(member)}?`}
      confirmLabel="Delete member"
      busy={remove.isPending}
      error={remove.error}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(
          { id: member.user_id, moveContactsTo: heir || null },
          {
            onSuccess: () => {
              announce(`${memberName(member)} deleted; ${contacts} given to ${nameOf(team, heir || member.manager_id)}`);
              onClose();
            },
          },
        )
      }
    >
      <p>
        {`${memberName(member)} owns ${contacts}.`}
        {reports.length > 0 &&
          ` Their team of ${formatCount(reports.length, 'member', 'members')} moves to ${nameOf(team, member.manager_id)}.`}{' '}
        They can no longer sign in, and their access tokens stop working.
      </p>
      <SelectField
        label={`Give the ${contacts} to`}
        options={options}
        value={heir}
        onChange={(e) => setHeir(e.target.value)}
        data-autofocus
      />
    </ConfirmDialog>
  );
}

/** Revokes a member's API token and issues the next one: integrations using the old one must be given the new one. */
export function ReplaceTokenDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const rotate = useRotateToken();
  const { announce } = useStatus();
  if (!member) return null;
  return (
    <ConfirmDialog
      open
      title={`Replace the API token of ${memberName(member)}?`}
      confirmLabel="Replace token"
      busy={rotate.isPending}
      error={rotate.error}
      onCancel={() => {
        rotate.reset();
        onClose();
      }}
      onConfirm={() =>
        rotate.mutate(
          { id: member.user_id },
          {
            onSuccess: () => {
              announce(`The API token of ${memberName(member)} was replaced; the old one no longer works`);
              rotate.reset();
              onClose();
            },
          },
        )
      }
    >
      <p>
        Their current token stops working at once, on every server. Integrations that use it must be given the new one, which they read from
        the member record (<code>oauth.bearer_token</code>) with a token of the team.
      </p>
    </ConfirmDialog>
  );
}
