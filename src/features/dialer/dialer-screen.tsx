import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useDialAction, type DispositionOption, type LiveSnapshot } from '../../api/dial-sessions';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { ApiError, errorMessage } from '../../lib/api-client';
import { contactDisplayName } from '../contacts/contact-name';
import { CallControls, CONTROL_KEYS } from './call-controls';
import { CallStatus } from './call-status';
import { ContactPanel } from './contact-panel';
import { DialQueue } from './dial-queue';
import { DispositionButtons } from './disposition-buttons';
import { StartBlocked } from './start-blocked';
import { useCallOnOpen } from './use-call-on-open';
import { useDialer } from './use-dialer';
import { useShortcuts } from './use-shortcuts';

function primaryPhone(contact: LiveSnapshot['contact']): string {
  const phones = contact?.phones ?? [];
  return (phones.find((p) => p.is_primary) ?? phones[0])?.phone_number ?? '';
}

function SessionComplete({ progress, queue }: { progress: LiveSnapshot['progress']; queue: LiveSnapshot['queue'] }) {
  /* A one-contact session (Call on a contact, a phone number) leads back to that contact, where the call is listed. */
  const only = queue.length === 1 ? queue[0] : undefined;
  return (
    <section aria-labelledby="session-complete" className="rounded-lg border border-zinc-200 bg-white p-6 text-center shadow-sm">
      <h2 id="session-complete" className="text-lg font-semibold text-zinc-900">
        Session complete
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        {progress.finished} of {progress.total} contacts worked: {progress.connected} connected, {progress.skipped} skipped.
      </p>
      <Link
        to={only ? `/contacts/${encodeURIComponent(only.contact_user_id)}` : '/contacts'}
        className="mt-4 inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-500"
      >
        {only ? `Back to ${only.name}` : 'Back to contacts'}
      </Link>
    </section>
  );
}

/** The dialer for one session: the contact, the call, its controls and the queue, kept live by the event stream. */
export function DialerScreen({ id }: { id: string }) {
  const dialer = useDialer(id);
  const notes = useDialAction(id);
  const { announce } = useStatus();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [phoneChoice, setPhoneChoice] = useState<{ contactId: string; phone: string } | null>(null);
  const [recordingId, setRecordingId] = useState('');
  const { snapshot, live, allowed, act } = dialer;

  useEffect(() => {
    document.title = `Dial session ${id} · Ringbook`;
  }, [id]);

  const contact = snapshot?.contact ?? null;
  const preview = snapshot?.session.preview_mode === '1';
  const phone = contact && phoneChoice?.contactId === contact.contact_user_id ? phoneChoice.phone : primaryPhone(contact);
  const recording = recordingId || snapshot?.voicemails[0]?.recording_id || '';
  /* After a disposition or the end the buttons pressed may do something else next: focus the call status instead. */
  const focusStatus = () => statusRef.current?.focus();

  const actions = {
    call: () => act({ action: 'call', ...(phone ? { phone } : {}) }),
    hangup: () => act({ action: 'hangup' }),
    skip: () => act({ action: 'skip' }),
    voicemail: () => act({ action: 'voicemail', recording_id: recording }),
    end: () => act({ action: 'end' }, focusStatus),
    dispose: (d: DispositionOption) => act({ action: 'disposition', disposition_id: d.disposition_id }, focusStatus),
  };

  useCallOnOpen(
    contact,
    preview && allowed.call,
    (contactId, p) => setPhoneChoice({ contactId, phone: p }),
    (p) => act({ action: 'call', phone: p }),
  );

  useShortcuts([
    { key: CONTROL_KEYS.call, enabled: preview && allowed.call, run: actions.call },
    { key: CONTROL_KEYS.hangup, enabled: allowed.hangup, run: actions.hangup },
    { key: CONTROL_KEYS.skip, enabled: preview && allowed.skip, run: actions.skip },
    { key: CONTROL_KEYS.voicemail, enabled: allowed.voicemail && recording !== '', run: actions.voicemail },
    ...(snapshot?.dispositions ?? [])
      .filter((d) => d.shortcut)
      .map((d) => ({ key: d.shortcut!, enabled: allowed.dispose, run: () => actions.dispose(d) })),
  ]);

  if (live.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24">
        <Spinner label="Loading the dial session…" />
      </div>
    );
  }
  if (!snapshot) {
    const missing = live.error instanceof ApiError && live.error.status === 404;
    return (
      <div className="px-4">
        <ErrorState
          title={missing ? 'Dial session not found' : 'The dial session could not be loaded'}
          message={missing ? 'This dial session does not exist, or it is not one you can see.' : errorMessage(live.error)}
          onRetry={missing ? undefined : () => void live.refetch()}
          retrying={live.isFetching}
        />
      </div>
    );
  }

  const done = dialer.phase === 'done' || snapshot.session.status === 'ended';
  const startRefused = snapshot.session.status === 'ready' && dialer.actionError instanceof ApiError && dialer.actionError.status === 409;
  const addNote = (note: string, cleared: () => void) =>
    notes.mutate(
      { action: 'note', note },
      {
        onSuccess: () => {
          cleared();
          announce('Note added');
        },
      },
    );

  return (
    <div className="mx-auto w-full max-w-6xl space-y-4 px-4 py-5 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold tracking-tight text-zinc-900">Dial session {snapshot.session.dialsession_id}</h1>
          <p className="text-sm text-zinc-600">
            {preview ? 'Preview mode: you place each call.' : 'Power mode: each contact is dialed as it comes up.'}
          </p>
        </div>
        <p className="text-xs text-zinc-500">Keys: {preview && 'C call · S skip · '}H hang up · V voicemail · digits for dispositions</p>
      </header>

      <CallStatus
        snapshot={snapshot}
        callState={dialer.callState}
        phase={dialer.phase}
        lastResult={dialer.lastResult}
        contactName={contact ? contactDisplayName(contact) : null}
        stream={dialer.stream}
        skewMs={dialer.skewMs}
        statusRef={statusRef}
      />
      {dialer.actionError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorMessage(dialer.actionError)}
        </p>
      )}

      {startRefused && <StartBlocked onStart={() => act({ action: 'start' })} />}

      {/* The call controls come first (on a phone they are on the first screen); from lg they sit right of the contact. */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_24rem] lg:grid-rows-[auto_1fr]">
        {!done && (
          <div className="space-y-4 lg:col-start-2 lg:row-start-1">
            <CallControls
              preview={preview}
              allowed={allowed}
              voicemails={snapshot.voicemails}
              recordingId={recording}
              onRecording={setRecordingId}
              onCall={actions.call}
              onHangUp={actions.hangup}
              onSkip={actions.skip}
              onVoicemail={actions.voicemail}
              onEnd={actions.end}
            />
            <DispositionButtons dispositions={snapshot.dispositions} enabled={allowed.dispose} onPick={actions.dispose} />
          </div>
        )}
        <div className="min-w-0 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {done ? (
            <SessionComplete progress={snapshot.progress} queue={snapshot.queue} />
          ) : contact ? (
            <ContactPanel
              sessionId={id}
              contact={contact}
              preview={preview}
              phone={phone}
              onPhone={(p) => setPhoneChoice({ contactId: contact.contact_user_id, phone: p })}
              canChoosePhone={allowed.call}
              onContactSaved={(message) => announce(message)}
              onAddNote={addNote}
              notePending={notes.isPending}
              noteError={notes.error}
            />
          ) : (
            <p className="rounded-lg border border-zinc-200 bg-white p-6 text-sm text-zinc-600">Bringing up the next contact…</p>
          )}
        </div>
        <div className={`lg:col-start-2 ${done ? 'lg:row-start-1' : 'lg:row-start-2'}`}>
          <DialQueue queue={snapshot.queue} total={snapshot.progress.total} ended={done} />
        </div>
      </div>
    </div>
  );
}
