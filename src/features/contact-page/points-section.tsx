import { useEffect, useRef, useState } from 'react';
import { useContactPoint, type EmailBody, type PhoneBody } from '../../api/contact-details';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { InlineError } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { useStatus } from '../../components/ui/status-message';
import { formatPhone, phoneTypeWord } from '../../lib/format';
import { CallPhoneButton } from '../dialer/call-phone-button';
import { useContactPage } from './contact-context';
import { EmailForm, PhoneForm } from './point-forms';

/** A phone or an e-mail address as the section lists it. */
type Entry = { id: number; shown: string; key: string; primary: boolean; detail: string; type?: number; label?: string };

type Kind = {
  kind: 'phones' | 'emails';
  title: string;
  noun: string;
  empty: string;
  entries: Entry[];
  /** The body that names an entry (its number or address), to which a change adds fields. */
  bodyOf: (entry: Entry) => PhoneBody | EmailBody;
};

function usePoints(kind: Kind['kind']): Kind {
  const { contact } = useContactPage();
  if (kind === 'phones') {
    return {
      kind: 'phones',
      title: 'Phone numbers',
      noun: 'phone number',
      empty: 'No phone numbers yet.',
      entries: (contact.phones ?? []).map((p) => ({
        id: p.id,
        shown: p.phone || formatPhone(p.phone_number),
        key: p.phone_number,
        primary: p.is_primary,
        detail: [phoneTypeWord(p.type_name, true), p.label].filter(Boolean).join(' · '),
        type: p.type,
        label: p.label,
      })),
      bodyOf: (e) => ({ phone_number: e.key }),
    };
  }
  return {
    kind: 'emails',
    title: 'E-mail addresses',
    noun: 'e-mail address',
    empty: 'No e-mail addresses yet.',
    entries: (contact.emails ?? []).map((e) => ({
      id: e.id,
      shown: e.email_address,
      key: e.email_address,
      primary: e.is_primary,
      detail: '',
    })),
    bodyOf: (e) => ({ email_address: e.key }),
  };
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function PointsSection({ kind, title, noun, empty, entries, bodyOf }: Kind) {
  const { contact } = useContactPage();
  const point = useContactPoint(contact.contact_user_id, kind);
  const { announce } = useStatus();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Entry | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const wasEditing = useRef<number | 'new' | null>(null);

  /* When a form closes, focus goes back to what opened it: the Add button, or the entry's Edit button. */
  useEffect(() => {
    const closed = wasEditing.current;
    wasEditing.current = editing;
    if (editing !== null || closed === null) return;
    listRef.current?.querySelector<HTMLElement>(closed === 'new' ? '[data-add]' : `[data-edit="${closed}"]`)?.focus();
  }, [editing]);
  /* An entry deleted takes its buttons with it: focus goes to the section's Add button. */
  const deletedId = useRef<number | null>(null);
  useEffect(() => {
    if (deleting || deletedId.current === null || entries.some((e) => e.id === deletedId.current)) return;
    deletedId.current = null;
    listRef.current?.querySelector<HTMLElement>('[data-add]')?.focus();
  }, [deleting, entries]);
  const stopEditing = () => {
    point.reset();
    setEditing(null);
  };
  const others = deleting ? entries.length - 1 : 0;

  const makePrimary = (entry: Entry) =>
    point.mutate(
      { op: 'change', pointId: entry.id, body: { ...bodyOf(entry), is_primary: true } },
      { onSuccess: () => announce(`${entry.shown} is now the primary ${noun}`) },
    );

  const saveWith = async (body: PhoneBody | EmailBody, entry: Entry | null) => {
    await point.mutateAsync(entry ? { op: 'change', pointId: entry.id, body } : { op: 'add', body });
    stopEditing();
    announce(`${capitalized(noun)} ${entry ? 'saved' : 'added'}`);
  };

  const formFor = (entry: Entry | null) => {
    const common = { mode: entry ? ('edit' as const) : ('add' as const), onCancel: stopEditing };
    return kind === 'phones' ? (
      <PhoneForm
        {...common}
        initial={entry ? { phone_number: entry.key, type: entry.type ?? 3, label: entry.label ?? '' } : undefined}
        onSave={(v) => saveWith(entry ? { phone_number: v.phone_number, type: v.type, label: v.label } : v, entry)}
      />
    ) : (
      <EmailForm
        {...common}
        initial={entry ? { email_address: entry.key } : undefined}
        onSave={(v) => saveWith(entry ? { email_address: v.email_address } : v, entry)}
      />
    );
  };

  return (
    <div ref={listRef}>
      <Section
        title={title}
        actions={
          editing !== 'new' && (
            <Button size="sm" data-add onClick={() => setEditing('new')}>
              {kind === 'phones' ? 'Add phone' : 'Add e-mail'}
            </Button>
          )
        }
      >
        {entries.length === 0 && editing !== 'new' && <p className="text-sm text-zinc-500">{empty}</p>}
        <ul aria-label={title} className="divide-y divide-zinc-100">
          {entries.map((entry) =>
            editing === entry.id ? (
              <li key={entry.id} className="py-2">
                {formFor(entry)}
              </li>
            ) : (
              <li key={entry.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                {kind === 'phones' ? (
                  <CallPhoneButton contactId={contact.contact_user_id} phone={entry.key} className="font-medium break-all" />
                ) : (
                  <span className="font-medium text-zinc-900 tabular-nums break-all">{entry.shown}</span>
                )}
                {entry.primary && (
                  <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-700">Primary</span>
                )}
                {entry.detail && <span className="text-sm text-zinc-500">{entry.detail}</span>}
                <span className="ml-auto flex gap-1">
                  {!entry.primary && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Make ${entry.shown} primary`}
                      onClick={() => makePrimary(entry)}
                      disabled={point.isPending}
                    >
                      Make primary
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    data-edit={entry.id}
                    aria-label={`Edit ${entry.shown}`}
                    onClick={() => setEditing(entry.id)}
                  >
                    Edit
                  </Button>
                  <Button size="sm" variant="danger-ghost" aria-label={`Delete ${entry.shown}`} onClick={() => setDeleting(entry)}>
                    Delete
                  </Button>
                </span>
              </li>
            ),
          )}
        </ul>
        {editing === 'new' && <div className="pt-2">{formFor(null)}</div>}
        {!deleting && point.isError && editing === null && <InlineError error={point.error} />}
        <ConfirmDialog
          open={deleting !== null}
          title={`Delete ${deleting?.shown ?? ''}?`}
          confirmLabel={`Delete ${noun}`}
          busy={point.isPending}
          error={point.error}
          onCancel={() => {
            point.reset();
            setDeleting(null);
          }}
          onConfirm={() =>
            deleting &&
            point.mutate(
              { op: 'delete', pointId: deleting.id },
              {
                onSuccess: () => {
                  deletedId.current = deleting.id;
                  announce(`${deleting.shown} deleted`);
                  setDeleting(null);
                },
              },
            )
          }
        >
          <p>
            {`The ${noun} is removed from this contact.`}
            {deleting?.primary && others > 0
              ? ` It is the primary one: the oldest of the ${others} other${others === 1 ? '' : 's'} becomes primary.`
              : ''}
          </p>
        </ConfirmDialog>
      </Section>
    </div>
  );
}

export function PhonesSection() {
  return <PointsSection {...usePoints('phones')} />;
}

export function EmailsSection() {
  return <PointsSection {...usePoints('emails')} />;
}
