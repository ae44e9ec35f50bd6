import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { BulkAction, BulkJobRecord } from '../../../server/contracts/bulk-jobs';
import { useStartBulkJob, type BulkJobRequest, type BulkSelection } from '../../api/bulk-jobs';
import { flattenFolders, foldersQueryOptions } from '../../api/folders';
import { tagsQueryOptions } from '../../api/tags';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

/** A bulk change the user has asked for and not yet confirmed. */
export type BulkDraft = {
  action: BulkAction;
  selection: BulkSelection;
  count: number;
  /** Made from the grid's selection (which it then uses up). */ fromSelection: boolean;
};

/** A started job with what the user chose, to describe its progress and result in words. */
export type StartedJob = { job: BulkJobRecord; action: BulkAction; selection: BulkSelection; target: string; fromSelection: boolean };

type Props = {
  draft: BulkDraft | null;
  owners: { id: string; name: string }[] | null;
  onClose: () => void;
  onStarted: (started: StartedJob) => void;
};

const titles: Record<BulkAction, string> = {
  add_tag: 'Add a tag',
  remove_tag: 'Remove a tag',
  move: 'Move to a folder',
  transfer: 'Transfer to a member',
  trash: 'Move to trash',
};

const confirmLabels: Record<BulkAction, string> = {
  add_tag: 'Add tag',
  remove_tag: 'Remove tag',
  move: 'Move contacts',
  transfer: 'Transfer contacts',
  trash: 'Move to trash',
};

type Choice = { request: BulkJobRequest; target: string } | { error: string };

function useChoices(draft: BulkDraft, owners: Props['owners']) {
  const tags = useQuery(tagsQueryOptions());
  const folders = useQuery(foldersQueryOptions());
  return {
    tags: tags.data ?? [],
    folders: flattenFolders(folders.data ?? []),
    owners: owners ?? [],
    loading: (draft.action === 'remove_tag' && tags.isPending) || (draft.action === 'move' && folders.isPending),
  };
}

/** Asks what to apply (a tag, a folder, a member) or confirms trashing, then queues the job. */
function BulkJobForm({ draft, owners, onClose, onStarted }: Omit<Props, 'draft'> & { draft: BulkDraft }) {
  const formId = useId();
  const start = useStartBulkJob();
  const choices = useChoices(draft, owners);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const listId = `${formId}-tags`;

  const choose = (): Choice => {
    const { action, selection } = draft;
    switch (action) {
      case 'add_tag': {
        const title = value.trim();
        if (!title) return { error: 'Tag is required: type a tag or pick one.' };
        const existing = choices.tags.find((t) => t.title.toLowerCase() === title.toLowerCase());
        return { request: { action, selection, tag: existing ? { id: existing.id } : { title } }, target: existing?.title ?? title };
      }
      case 'remove_tag': {
        const tag = choices.tags.find((t) => String(t.id) === value);
        return tag
          ? { request: { action, selection, tag: { id: tag.id } }, target: tag.title }
          : { error: 'Tag is required: pick the tag to remove.' };
      }
      case 'move': {
        const folder = choices.folders.find((f) => f.id === value);
        return { request: { action, selection, folderId: folder?.id ?? null }, target: folder?.name ?? 'no folder' };
      }
      case 'transfer': {
        const member = choices.owners.find((o) => o.id === value);
        return member
          ? { request: { action, selection, memberId: member.id }, target: member.name }
          : { error: 'Member is required: pick who gets the contacts.' };
      }
      case 'trash':
        return { request: { action, selection }, target: '' };
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const choice = choose();
    if ('error' in choice) {
      setFieldError(choice.error);
      return;
    }
    start.mutate(choice.request, {
      onSuccess: (job) =>
        onStarted({ job, action: draft.action, selection: draft.selection, target: choice.target, fromSelection: draft.fromSelection }),
    });
  };

  const what =
    draft.selection.kind === 'filter'
      ? `all ${formatCount(draft.count, 'matching contact', 'matching contacts')}`
      : formatCount(draft.count, 'selected contact', 'selected contacts');

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      role={draft.action === 'trash' ? 'alertdialog' : 'dialog'}
      preventClose={start.isPending}
      title={draft.action === 'trash' ? `Move ${formatCount(draft.count, 'contact', 'contacts')} to trash?` : titles[draft.action]}
      description={`Applies to ${what}.`}
      footer={
        <>
          <Button onClick={onClose} disabled={start.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={start.isPending} disabled={choices.loading}>
            {confirmLabels[draft.action]}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-3">
        {draft.action === 'add_tag' && (
          <>
            <TextField
              label="Tag"
              list={listId}
              autoComplete="off"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={fieldError}
              hint="Pick a tag or type a new one."
            />
            <datalist id={listId}>
              {choices.tags.map((t) => (
                <option key={t.id} value={t.title} />
              ))}
            </datalist>
          </>
        )}
        {draft.action === 'remove_tag' && (
          <SelectField
            label="Tag"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={fieldError}
            options={[
              { value: '', label: choices.loading ? 'Loading tags…' : 'Choose a tag' },
              ...choices.tags.map((t) => ({ value: String(t.id), label: t.title })),
            ]}
          />
        )}
        {draft.action === 'move' && (
          <SelectField
            label="Folder"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            options={[
              { value: '', label: 'No folder' },
              ...choices.folders.map((f) => ({ value: f.id, label: f.parentId ? `\u2003${f.name}` : f.name })),
            ]}
          />
        )}
        {draft.action === 'transfer' && (
          <SelectField
            label="Member"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={fieldError}
            options={[{ value: '', label: 'Choose a member' }, ...choices.owners.map((o) => ({ value: o.id, label: o.name }))]}
          />
        )}
        {draft.action === 'trash' && (
          <p className="text-sm text-zinc-700">
            Contacts in the trash no longer appear in lists or dial sessions.
            {draft.selection.kind === 'ids' ? ' You can undo this right after.' : ' A whole filtered view cannot be undone from here.'}
          </p>
        )}
        {draft.count > 500 && (
          <p className="text-xs text-zinc-500">This runs on the server in steps of 500; you can keep working while it does.</p>
        )}
        {start.isError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {errorMessage(start.error)}
          </p>
        )}
      </form>
    </Dialog>
  );
}

export function BulkJobDialog(props: Props) {
  if (!props.draft) return null;
  return <BulkJobForm key={`${props.draft.action}:${props.draft.count}`} {...props} draft={props.draft} />;
}
