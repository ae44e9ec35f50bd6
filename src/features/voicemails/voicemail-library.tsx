import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { voicemailAudioUrl, voicemailsQueryOptions, type VoicemailRecord } from '../../api/voicemails';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { formatDuration } from '../usage/session-calls';
import { GreetingRecorderDialog } from './greeting-recorder';
import { DeleteVoicemailDialog, RenameVoicemailDialog, UploadVoicemailDialog } from './voicemail-dialogs';

type Open = { kind: 'record' } | { kind: 'upload' } | { kind: 'rename' | 'delete'; voicemail: VoicemailRecord } | null;

/** The organisation's voicemail greetings: listen, record, upload, rename, delete (for the Settings screen). */
export function VoicemailLibrarySection() {
  const library = useQuery(voicemailsQueryOptions());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const actions = (
    <>
      <Button size="sm" variant="primary" onClick={() => setOpen({ kind: 'record' })}>
        Record a greeting
      </Button>
      <Button size="sm" onClick={() => setOpen({ kind: 'upload' })}>
        Upload a file
      </Button>
    </>
  );

  return (
    <Section title="Voicemail library" actions={actions}>
      <p className="mb-3 text-sm text-zinc-600">The greetings you can drop on an answering machine during a dial session.</p>
      {library.isPending ? (
        <Spinner label="Loading voicemails…" />
      ) : library.isError ? (
        <ErrorState
          title="The voicemails could not be loaded"
          message={errorMessage(library.error)}
          onRetry={() => void library.refetch()}
          retrying={library.isFetching}
        />
      ) : library.data.length === 0 ? (
        <EmptyState title="No voicemails yet">Record a greeting or upload an audio file to drop it on answering machines.</EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Voicemails">
          {library.data.map((v) => (
            <VoicemailRow
              key={v.recording_id}
              voicemail={v}
              onRename={() => setOpen({ kind: 'rename', voicemail: v })}
              onDelete={() => setOpen({ kind: 'delete', voicemail: v })}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'record' && <GreetingRecorderDialog onClose={close} />}
      {open?.kind === 'upload' && <UploadVoicemailDialog onClose={close} />}
      <RenameVoicemailDialog voicemail={open?.kind === 'rename' ? open.voicemail : null} onClose={close} />
      <DeleteVoicemailDialog voicemail={open?.kind === 'delete' ? open.voicemail : null} onClose={close} />
    </Section>
  );
}

function VoicemailRow({ voicemail: v, onRename, onDelete }: { voicemail: VoicemailRecord; onRename: () => void; onDelete: () => void }) {
  const maker = v.system === '1' ? null : (v.member_name ?? 'A former member');
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-900">
          <span className="break-words">{v.name}</span>
          {v.system === '1' && <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-600">System</span>}
        </p>
        <p className="text-sm text-zinc-600">
          {formatDuration(Math.round(v.duration_ms / 1000))}
          {maker && ` · by ${maker}`} · {formatDate(v.created_when)}
        </p>
      </div>
      <audio controls preload="none" src={voicemailAudioUrl(v.recording_id)} aria-label={`Play ${v.name}`} className="h-9 w-full sm:w-56" />
      {v.can_edit === '1' && (
        <div className="flex gap-2">
          <Button size="sm" variant="ghost" onClick={onRename} aria-label={`Rename ${v.name}`}>
            Rename
          </Button>
          <Button size="sm" variant="danger-ghost" onClick={onDelete} aria-label={`Delete ${v.name}`}>
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}
