import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { foldersQueryOptions } from '../../api/folders';
import { memberName, type TeamMember } from '../../api/members';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { SelectField } from '../../components/ui/field';
import { InlineError } from '../../components/ui/form-error';
import { folderOptions } from '../folders/folder-options';
import { localError, StaleNotice, useContactPage } from './contact-context';

type ChoiceDialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  initial: string;
  /** Saves the choice; resolves when saved. */
  onSubmit: (value: string) => Promise<void>;
  children: (value: string, setValue: (v: string) => void) => ReactNode;
};

/** A dialog that picks one thing and saves it; stays open with the reason when saving fails. */
function ChoiceDialog({ open, onClose, title, submitLabel, initial, onSubmit, children }: ChoiceDialogProps) {
  const { saving } = useContactPage();
  const formId = useId();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (open) {
      setValue(initial);
      setError(null);
    }
  }, [open, initial]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await onSubmit(value);
      onClose();
    } catch (e) {
      setError(localError(e));
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      preventClose={saving}
      footer={
        <>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={saving} disabled={value === initial}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="space-y-4">
        <StaleNotice />
        {children(value, setValue)}
        <InlineError error={error} />
      </form>
    </Dialog>
  );
}

export function MoveDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { contact, save } = useContactPage();
  const folders = useQuery(foldersQueryOptions());
  const current = contact.category_id === '0' ? '' : contact.category_id;
  const options = [{ value: '', label: 'No folder' }, ...folderOptions(folders.data ?? [])];
  if (current && !options.some((o) => o.value === current))
    options.push({ value: current, label: contact.category?.name || 'A folder since deleted' });
  const nameOf = (id: string) => options.find((o) => o.value === id)?.label ?? 'the folder';

  return (
    <ChoiceDialog
      open={open}
      onClose={onClose}
      title="Move to folder"
      submitLabel="Move"
      initial={current}
      onSubmit={(value) => save({ category_id: value || 0 }, value ? `Moved to ${nameOf(value)}` : 'Taken out of its folder')}
    >
      {(value, setValue) => (
        <SelectField
          label="Folder"
          options={options}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint={folders.isPending ? 'Loading folders…' : folders.isError ? 'The folders could not be loaded.' : undefined}
        />
      )}
    </ChoiceDialog>
  );
}

export function TransferDialog({ open, onClose, team }: { open: boolean; onClose: () => void; team: TeamMember[] }) {
  const { contact, save } = useContactPage();
  const others = team.filter((m) => m.user_id !== contact.owner_id);
  const options = [
    { value: '', label: 'Choose a member' },
    ...team.map((m) => ({ value: m.user_id, label: `${memberName(m)} (${m.username})`, disabled: m.user_id === contact.owner_id })),
  ];
  const nameOf = (id: string) =>
    memberName(team.find((m) => m.user_id === id) ?? { display_name: '', first_name: '', last_name: '', username: `member ${id}` });

  return (
    <ChoiceDialog
      open={open}
      onClose={onClose}
      title="Transfer to another member"
      submitLabel="Transfer"
      initial=""
      onSubmit={(value) => save({ transfer_to_user_id: Number(value) }, `Transferred to ${nameOf(value)}`)}
    >
      {(value, setValue) =>
        others.length === 0 ? (
          <p className="text-sm text-zinc-700">There is no one else in your team to transfer this contact to.</p>
        ) : (
          <SelectField
            label="New owner"
            options={options}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            hint="Members of your team. The new owner sees the contact in their lists and dial sessions."
          />
        )
      }
    </ChoiceDialog>
  );
}
