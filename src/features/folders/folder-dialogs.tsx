import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { createFolderBody } from '../../../server/contracts/folders';
import { useCreateFolder, useDeleteFolder, useUpdateFolder, type Folder } from '../../api/folders';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SelectField, TextareaField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';
import { folderOptions } from './folder-options';

/** What the folder dialog does: a new top-level folder, a new sub-folder, or a change of name and description. */
export type FolderEdit = { kind: 'new' } | { kind: 'sub'; parent: Folder } | { kind: 'edit'; folder: Folder };

const schema = createFolderBody.pick({ name: true, description: true });
type Input = z.input<typeof schema>;
const LABELS = { name: 'Name', description: 'Description' } as const;
const FIELDS: FieldMap<Input> = {
  name: { name: 'name', label: LABELS.name },
  description: { name: 'description', label: LABELS.description },
};

const titleOf = (edit: FolderEdit) =>
  edit.kind === 'new' ? 'New folder' : edit.kind === 'sub' ? `New sub-folder in ${edit.parent.name}` : `Edit folder ${edit.folder.name}`;

const editKey = (edit: FolderEdit) =>
  edit.kind === 'new' ? 'new' : edit.kind === 'sub' ? `sub:${edit.parent.id}` : `edit:${edit.folder.id}`;

/**
 * The folder dialog, mounted each time it opens: the form starts from its values rather than being reset after it
 * shows (a reset after mounting dropped what was typed, or autofilled, in the moment before it ran).
 */
export function FolderFormDialog({ edit, onClose }: { edit: FolderEdit | null; onClose: () => void }) {
  return edit ? <FolderForm key={editKey(edit)} edit={edit} onClose={onClose} /> : null;
}

function FolderForm({ edit, onClose }: { edit: FolderEdit; onClose: () => void }) {
  const create = useCreateFolder();
  const update = useUpdateFolder();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: edit.kind === 'edit' ? { name: edit.folder.name, description: edit.folder.description } : { name: '', description: '' },
  });
  const busy = formState.isSubmitting;

  const submit = handleSubmit(async (values) => {
    setProblems([]);
    try {
      if (edit.kind === 'edit') await update.mutateAsync({ id: edit.folder.id, name: values.name, description: values.description });
      else await create.mutateAsync({ ...values, ...(edit.kind === 'sub' ? { parent_id: edit.parent.id } : {}) });
      announce(edit.kind === 'edit' ? `Folder ${values.name} saved` : `Folder ${values.name} created`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, FIELDS, { conflictField: FIELDS.name }));
    }
  });
  const message = (f: keyof typeof LABELS) => {
    const m = formState.errors[f]?.message;
    return m ? labelled(LABELS[f], m, f) : undefined;
  };

  return (
    <FormDialog
      title={titleOf(edit)}
      submitLabel={edit.kind === 'edit' ? 'Save folder' : 'Create folder'}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The folder was not saved." messages={problems} />
      <TextField label={LABELS.name} required autoComplete="off" maxLength={100} error={message('name')} {...register('name')} />
      <TextareaField
        label={LABELS.description}
        rows={3}
        maxLength={1000}
        hint="Optional: what the folder is for."
        error={message('description')}
        {...register('description')}
      />
    </FormDialog>
  );
}

/** Deleting a folder deletes its sub-folders too; all their contacts move to the folder chosen (or to none). */
export function DeleteFolderDialog({
  folder,
  tree,
  onClose,
  onDeleted,
}: {
  folder: Folder | null;
  tree: Folder[];
  onClose: () => void;
  onDeleted: (folder: Folder) => void;
}) {
  const remove = useDeleteFolder();
  const { announce } = useStatus();
  const [target, setTarget] = useState('');
  useEffect(() => {
    setTarget('');
    remove.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh choice for each folder (not when its counts are read again)
  }, [folder?.id]);
  if (!folder) return null;

  const doomed = new Set([folder.id, ...folder.children.map((c) => c.id)]);
  const own = folder.contactCount;
  const inChildren = folder.children.reduce((n, c) => n + c.contactCount, 0);
  const options = [{ value: '', label: 'No folder' }, ...folderOptions(tree, doomed)];
  const targetName = options.find((o) => o.value === target)?.label ?? 'No folder';
  const total = own + inChildren;

  return (
    <ConfirmDialog
      open
      title={`Delete the folder ${folder.name}?`}
      confirmLabel="Delete folder"
      busy={remove.isPending}
      error={remove.error}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(
          { id: folder.id, moveTo: target || null },
          {
            onSuccess: () => {
              announce(`Folder ${folder.name} deleted; ${formatCount(total, 'contact', 'contacts')} moved to ${targetName}`);
              onDeleted(folder);
            },
          },
        )
      }
    >
      <p>
        {`${folder.name} holds ${formatCount(own, 'contact', 'contacts')}.`}
        {folder.children.length > 0 &&
          ` Its ${formatCount(folder.children.length, 'sub-folder', 'sub-folders')} (${folder.children.map((c) => c.name).join(', ')}) ${folder.children.length === 1 ? 'is' : 'are'} deleted too, with ${formatCount(inChildren, 'more contact', 'more contacts')}.`}
      </p>
      <SelectField
        label={`Move the ${formatCount(total, 'contact', 'contacts')} to`}
        options={options}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        data-autofocus
      />
    </ConfirmDialog>
  );
}
