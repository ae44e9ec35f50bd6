import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ContentRecord, messagesQueryOptions } from '../../api/content';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { DeleteMessageDialog, MessageDialog } from './message-dialogs';

type Open = { kind: 'new' } | { kind: 'edit' | 'delete'; message: ContentRecord } | null;

/** The e-mails a disposition can send: the system's (read-only) and the organisation's; members write and change their own. */
export function MessageLibrarySection() {
  const library = useQuery(messagesQueryOptions());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  // Call scripts share the library's list but are not e-mails.
  const emails = library.data?.filter((m) => m.type !== 'script') ?? [];
  return (
    <Section
      title="Messages"
      actions={
        <Button size="sm" variant="primary" onClick={() => setOpen({ kind: 'new' })}>
          New message
        </Button>
      }
    >
      <p className="mb-3 text-sm text-zinc-600">The e-mails you can send after a call: choose one per disposition above.</p>
      {library.isPending ? (
        <Spinner label="Loading messages…" />
      ) : library.isError ? (
        <ErrorState
          title="The messages could not be loaded"
          message={errorMessage(library.error)}
          onRetry={() => void library.refetch()}
          retrying={library.isFetching}
        />
      ) : emails.length === 0 ? (
        <EmptyState title="No messages yet">Write a message to e-mail contacts after a call.</EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Messages">
          {emails.map((m) => (
            <MessageRow
              key={m.message_id}
              message={m}
              onEdit={() => setOpen({ kind: 'edit', message: m })}
              onDelete={() => setOpen({ kind: 'delete', message: m })}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'new' && <MessageDialog message={null} onClose={close} />}
      {open?.kind === 'edit' && <MessageDialog key={open.message.message_id} message={open.message} onClose={close} />}
      <DeleteMessageDialog message={open?.kind === 'delete' ? open.message : null} onClose={close} />
    </Section>
  );
}

function MessageRow({ message: m, onEdit, onDelete }: { message: ContentRecord; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-900">
          <span className="break-words">{m.display_name}</span>
          {m.system_message === 1 && <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-600">System</span>}
        </p>
        <p className="truncate text-sm text-zinc-600">{m.subject || m.description || m.body}</p>
      </div>
      {m.can_edit === '1' && (
        <div className="flex gap-2">
          <Button size="sm" variant="ghost" onClick={onEdit} aria-label={`Edit ${m.display_name}`}>
            Edit
          </Button>
          <Button size="sm" variant="danger-ghost" onClick={onDelete} aria-label={`Delete ${m.display_name}`}>
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}
