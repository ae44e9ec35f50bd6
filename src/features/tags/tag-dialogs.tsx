import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { tagBody } from '../../../server/contracts/tags';
import { useDeleteTag, useRenameTag, type CountedTag } from '../../api/tags';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';

type Input = z.input<typeof tagBody>;
export const TITLE_FIELD: FieldMap<Input> = { title: { name: 'title', label: 'Title' } };

/** Mounted each time it opens, so its form starts from the tag's title (a reset after mounting could drop typing). */
export function RenameTagDialog({ tag, onClose }: { tag: CountedTag | null; onClose: () => void }) {
  return tag ? <RenameTagForm key={tag.id} tag={tag} onClose={onClose} /> : null;
}

function RenameTagForm({ tag, onClose }: { tag: CountedTag; onClose: () => void }) {
  const rename = useRenameTag();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, z.output<typeof tagBody>>({
    resolver: zodResolver(tagBody),
    defaultValues: { title: tag.title },
  });

  const submit = handleSubmit(async ({ title }) => {
    setProblems([]);
    try {
      await rename.mutateAsync({ id: tag.id, title });
      announce(`Tag “${tag.title}” renamed to “${title}”`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, TITLE_FIELD, { conflictField: TITLE_FIELD.title }));
    }
  });
  const error = formState.errors.title?.message;

  return (
    <FormDialog
      title={`Rename the tag ${tag.title}`}
      description={`The new title shows on the ${formatCount(tag.contact_count, 'contact', 'contacts')} holding it.`}
      submitLabel="Rename tag"
      busy={rename.isPending}
      onClose={onClose}
      onSubmit={submit}
      className="space-y-3"
    >
      <FormAlert title="The tag was not renamed." messages={problems} />
      <TextField
        label="Title"
        autoComplete="off"
        maxLength={100}
        error={error ? labelled('Title', error, 'title') : undefined}
        {...register('title')}
      />
    </FormDialog>
  );
}

export function DeleteTagDialog({ tag, onClose }: { tag: CountedTag | null; onClose: () => void }) {
  const count = tag ? formatCount(tag.contact_count, 'contact', 'contacts') : '';
  return (
    <DeleteDialog
      item={tag}
      remove={useDeleteTag()}
      idOf={(t) => t.id}
      title={(t) => `Delete the tag ${t.title}?`}
      confirmLabel="Delete tag"
      deleted={(t) => `Tag “${t.title}” deleted and removed from ${count}`}
      onClose={onClose}
    >
      <p>
        {tag &&
          (tag.contact_count > 0
            ? `Remove the tag from ${count} and delete it? This cannot be undone.`
            : 'No contact holds this tag. It is removed from the catalog.')}
      </p>
    </DeleteDialog>
  );
}
