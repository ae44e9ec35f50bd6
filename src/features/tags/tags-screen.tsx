import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { tagBody } from '../../../server/contracts/tags';
import { countedTagsQueryOptions, useCreateTag } from '../../api/tags';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { TextField } from '../../components/ui/field';
import { applyServerErrors, FormAlert, labelled } from '../../components/ui/form-error';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { DeleteTagDialog, RenameTagDialog, TITLE_FIELD } from './tag-dialogs';

function NewTagForm() {
  const create = useCreateTag();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, reset, setError, formState } = useForm<z.input<typeof tagBody>, unknown, z.output<typeof tagBody>>({
    resolver: zodResolver(tagBody),
    defaultValues: { title: '' },
  });
  const submit = handleSubmit(async ({ title }) => {
    setProblems([]);
    try {
      await create.mutateAsync(title);
      announce(`Tag “${title}” created`);
      reset({ title: '' });
    } catch (error) {
      setProblems(applyServerErrors(error, setError, TITLE_FIELD, { conflictField: TITLE_FIELD.title }));
    }
  });
  const error = formState.errors.title?.message;
  return (
    <form onSubmit={submit} noValidate aria-label="Create a tag" className="flex flex-wrap items-start gap-2">
      <TextField
        label="New tag"
        autoComplete="off"
        maxLength={100}
        className="w-64"
        error={error ? labelled('Title', error, 'title') : undefined}
        {...register('title')}
      />
      <Button type="submit" variant="primary" busy={create.isPending} className="mt-6">
        Create tag
      </Button>
      <div className="w-full empty:hidden">{problems.length > 0 && <FormAlert title="The tag was not created." messages={problems} />}</div>
    </form>
  );
}

/** The organisation's tag catalog with the contacts using each tag; the vendor renames and deletes. */
export function TagsScreen() {
  const tags = useQuery(countedTagsQueryOptions());
  const [filter, setFilter] = useState('');
  const [renaming, setRenaming] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  /* Dialogs read the tag from the list, and opening one reads the list again: their counts are current. */
  const tagOf = (id: number | null) => tags.data?.find((t) => t.id === id) ?? null;
  const open = (set: (id: number) => void, id: number) => {
    set(id);
    void tags.refetch();
  };
  const shown = (tags.data ?? []).filter((t) => t.title.toLowerCase().includes(filter.trim().toLowerCase()));

  useEffect(() => {
    document.title = 'Tags · Ringbook';
  }, []);

  return (
    <div className="mx-auto w-full max-w-4xl space-y-5 px-4 py-5 sm:px-6">
      <PageHeader
        title="Tags"
        description="The tags every member can give contacts. Renaming or deleting one changes every contact that holds it."
      />
      <NewTagForm />
      <section
        aria-label="Tag catalog"
        aria-busy={tags.isFetching}
        className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm"
      >
        {tags.isPending && (
          <div className="flex justify-center py-12">
            <Spinner label="Loading tags…" />
          </div>
        )}
        {tags.isError && (
          <ErrorState
            title="Tags could not be loaded"
            message={errorMessage(tags.error)}
            onRetry={() => void tags.refetch()}
            retrying={tags.isFetching}
          />
        )}
        {tags.isSuccess && tags.data.length === 0 && (
          <EmptyState title="No tags yet">Create one above, or add one to a contact.</EmptyState>
        )}
        {tags.isSuccess && tags.data.length > 0 && (
          <>
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2">
              <input
                type="search"
                aria-label="Filter tags"
                placeholder="Filter tags"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                className="h-8 w-56 rounded-md border border-zinc-300 px-2 text-sm"
              />
              <p className="text-sm text-zinc-600">{formatCount(tags.data.length, 'tag', 'tags')}</p>
            </div>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Tags and the number of contacts holding each</caption>
              <thead className="bg-zinc-50 text-xs text-zinc-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Tag
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    Contacts
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {shown.map((tag) => (
                  <tr key={tag.id}>
                    <th scope="row" className="px-4 py-2 font-medium text-zinc-900">
                      {tag.title}
                    </th>
                    <td className="px-4 py-2 text-right text-zinc-700 tabular-nums">{tag.contact_count.toLocaleString()}</td>
                    <td className="px-4 py-1.5 text-right whitespace-nowrap">
                      <Button size="sm" variant="ghost" aria-label={`Rename ${tag.title}`} onClick={() => open(setRenaming, tag.id)}>
                        Rename
                      </Button>
                      <Button size="sm" variant="danger-ghost" aria-label={`Delete ${tag.title}`} onClick={() => open(setDeleting, tag.id)}>
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length === 0 && <p className="px-4 py-6 text-center text-sm text-zinc-500">No tag matches “{filter}”.</p>}
          </>
        )}
      </section>
      <RenameTagDialog tag={tagOf(renaming)} onClose={() => setRenaming(null)} />
      <DeleteTagDialog tag={tagOf(deleting)} onClose={() => setDeleting(null)} />
    </div>
  );
}
