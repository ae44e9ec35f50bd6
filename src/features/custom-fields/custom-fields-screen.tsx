import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { customFieldsQueryOptions, useReorderFields, type CustomField } from '../../api/custom-fields';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { InlineError } from '../../components/ui/form-error';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { DeleteFieldDialog, FieldDialog } from './field-dialogs';
import { OptionsDialog } from './options-editor';

/** Orders 1..n for the list with one field moved; only the fields whose order changes are written. */
function reorderChanges(fields: CustomField[], from: number, to: number) {
  const sequence = [...fields];
  const [moved] = sequence.splice(from, 1);
  sequence.splice(to, 0, moved!);
  return sequence.map((f, i) => ({ id: f.id, order: i + 1 })).filter((c, i) => sequence[i]!.order !== c.order);
}

const arrow = (d: string) => (
  <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
    <path fillRule="evenodd" d={d} clipRule="evenodd" />
  </svg>
);
const UP =
  'M10 17a.75.75 0 0 1-.75-.75V5.612L5.29 9.77a.75.75 0 0 1-1.08-1.04l5.25-5.5a.75.75 0 0 1 1.08 0l5.25 5.5a.75.75 0 1 1-1.08 1.04l-3.96-4.158V16.25A.75.75 0 0 1 10 17Z';
const DOWN =
  'M10 3a.75.75 0 0 1 .75.75v10.638l3.96-4.158a.75.75 0 1 1 1.08 1.04l-5.25 5.5a.75.75 0 0 1-1.08 0l-5.25-5.5a.75.75 0 1 1 1.08-1.04l3.96 4.158V3.75A.75.75 0 0 1 10 3Z';

/** Custom-field definitions in display order: create, rename, reorder, delete (the vendor's). */
export function CustomFieldsScreen() {
  const fields = useQuery(customFieldsQueryOptions({ counts: true }));
  const reorder = useReorderFields();
  const { announce } = useStatus();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [optionsOf, setOptionsOf] = useState<string | null>(null);
  const list = fields.data ?? [];
  /* Dialogs read the field from the list, and opening one reads the list again: their counts are current. */
  const fieldOf = (id: string | null) => list.find((f) => f.id === id) ?? null;
  const open = (set: (id: string) => void, id: string) => {
    set(id);
    void fields.refetch();
  };

  useEffect(() => {
    document.title = 'Custom fields · Ringbook';
  }, []);

  /* Buttons stay enabled while a move is written (disabling them would drop keyboard focus); a second one waits its turn. */
  const move = (index: number, by: -1 | 1) => {
    if (reorder.isPending) return;
    const field = list[index]!;
    reorder.mutate(reorderChanges(list, index, index + by), {
      onSuccess: () => announce(`${field.name} moved ${by < 0 ? 'up' : 'down'} to position ${index + by + 1} of ${list.length}`),
    });
  };

  return (
    <div className="mx-auto w-full max-w-5xl space-y-5 px-4 py-5 sm:px-6">
      <PageHeader
        title="Custom fields"
        description="Extra fields every contact can hold, shown on contacts in this order."
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            New custom field
          </Button>
        }
      />
      <InlineError error={reorder.error} />
      <section
        aria-label="Custom fields"
        aria-busy={fields.isFetching || reorder.isPending}
        className="overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-sm"
      >
        {fields.isPending && (
          <div className="flex justify-center py-12">
            <Spinner label="Loading custom fields…" />
          </div>
        )}
        {fields.isError && (
          <ErrorState
            title="Custom fields could not be loaded"
            message={errorMessage(fields.error)}
            onRetry={() => void fields.refetch()}
            retrying={fields.isFetching}
          />
        )}
        {fields.isSuccess && list.length === 0 && (
          <EmptyState title="No custom fields yet">
            Create one to give contacts more details, such as a company or a renewal date.
          </EmptyState>
        )}
        {list.length > 0 && (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Custom fields in display order</caption>
            <thead className="bg-zinc-50 text-xs text-zinc-500">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Order
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Type
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Contacts with a value
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {list.map((field, i) => (
                <tr key={field.id}>
                  <td className="px-4 py-2 text-zinc-500 tabular-nums">{i + 1}</td>
                  <th scope="row" className="px-2 py-2 font-medium text-zinc-900">
                    {field.name}
                  </th>
                  <td className="px-2 py-2 text-zinc-700">
                    {field.typeName}
                    {field.typeId === 6 && (
                      <p className="text-xs text-zinc-500">
                        {field.options.length ? `Options: ${field.options.map((o) => o.label).join(', ')}` : 'No options yet'}
                      </p>
                    )}
                  </td>
                  <td className="px-2 py-2 text-right text-zinc-700 tabular-nums">{field.contactCount.toLocaleString()}</td>
                  <td className="px-4 py-1.5 text-right whitespace-nowrap">
                    <Button size="sm" variant="ghost" aria-label={`Move ${field.name} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                      {arrow(UP)}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move ${field.name} down`}
                      disabled={i === list.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      {arrow(DOWN)}
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Rename ${field.name}`} onClick={() => open(setEditing, field.id)}>
                      Rename
                    </Button>
                    {field.typeId === 6 && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit options of ${field.name}`}
                        onClick={() => open(setOptionsOf, field.id)}
                      >
                        Options
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="danger-ghost"
                      aria-label={`Delete ${field.name}`}
                      onClick={() => open(setDeleting, field.id)}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <FieldDialog open={editing !== null} field={editing === 'new' ? null : fieldOf(editing)} onClose={() => setEditing(null)} />
      <DeleteFieldDialog field={fieldOf(deleting)} onClose={() => setDeleting(null)} />
      <OptionsDialog field={fieldOf(optionsOf)} onClose={() => setOptionsOf(null)} />
    </div>
  );
}
