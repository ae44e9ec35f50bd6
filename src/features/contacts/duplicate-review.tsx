import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import {
  fetchVersioned,
  STALE_VERSION,
  useCreateContact,
  useUpdateContact,
  type ContactWriteBody,
  type VersionedContact,
} from '../../api/contacts';
import type { Folder } from '../../api/folders';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatPhone } from '../../lib/format';
import { contactHref } from './contact-columns';
import type { ContactFormValues } from './contact-form-schema';
import { contactDisplayName } from './contact-name';
import { ChangeTable, type ChangeRow } from './change-table';
import { comparable, COMPARED_FIELDS, displayValue, labelOf, sameValue } from './field-changes';
import { duplicateUpdateOf, type DuplicateUpdate } from './duplicate-merge';

export type DuplicateReviewState = {
  matches: ContactRecord[];
  /** What the user typed (the form's strings) and the create body built from it. */
  typed: ContactFormValues;
  body: ContactWriteBody;
};

type Props = {
  review: DuplicateReviewState;
  folders: Folder[];
  onBack: () => void;
  onDone: (message: string) => void;
};

/**
 * The typed values that would change the existing contact, field by field (blank fields change nothing). A new phone
 * or e-mail is added beside the contact's own (duplicate-merge.ts), and said so.
 */
function changesFor(current: ContactRecord, typed: ContactFormValues, folders: Folder[], update: DuplicateUpdate): ChangeRow[] {
  const now = comparable(current);
  const rows: ChangeRow[] = [];
  for (const field of COMPARED_FIELDS) {
    const value = typed[field];
    if (field === 'phone' || field === 'phone_type' || field === 'email') continue;
    if (!value.trim() || sameValue(field, value, now[field])) continue;
    rows.push({ field, label: labelOf(field), cells: [displayValue(field, now[field], folders), displayValue(field, value, folders)] });
  }
  if (update.phone) {
    const type = typed.phone_type ? ` (${displayValue('phone_type', typed.phone_type, folders).toLowerCase()})` : '';
    const added = `${displayValue('phone', typed.phone, folders)}${type}`;
    const cells: [string, string] = update.phone === 'adds' ? [displayValue('phone', now.phone, folders), `Adds: ${added}`] : ['—', added];
    rows.push({ field: 'phone', label: labelOf('phone'), cells });
  }
  if (update.email) {
    const cells: [string, string] = update.email === 'adds' ? [now.email || '—', `Adds: ${typed.email.trim()}`] : ['—', typed.email.trim()];
    rows.push({ field: 'email', label: labelOf('email'), cells });
  }
  if (typed.tags.trim()) rows.push({ field: 'tags', label: 'Tags', cells: ['—', `Adds: ${typed.tags}`] });
  if (typed.notes.trim()) rows.push({ field: 'notes', label: 'Note', cells: ['—', `Adds: ${typed.notes}`] });
  return rows;
}

function MatchSummary({ match, onUpdate, busy }: { match: ContactRecord; onUpdate: () => void; busy: boolean }) {
  const name = contactDisplayName(match);
  const details = [match.primary_email?.email_address, formatPhone(match.primary_phone?.phone)].filter(Boolean).join(' · ');
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
      <div className="min-w-0 flex-1">
        <p className="font-medium text-zinc-900">{name}</p>
        <p className="truncate text-sm text-zinc-600">{details}</p>
      </div>
      <Link to={contactHref(match)} className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50">
        Open {name}
      </Link>
      <Button size="sm" onClick={onUpdate} busy={busy}>
        Update {name}…
      </Button>
    </li>
  );
}

/**
 * A new contact shares its e-mail or phone with existing ones: show them, and let the user choose explicitly:
 * open one, update one with the typed values (after seeing what changes), or create a separate contact.
 */
export function DuplicateReview({ review, folders, onBack, onDone }: Props) {
  const create = useCreateContact();
  const update = useUpdateContact();
  const [target, setTarget] = useState<VersionedContact | null>(null);
  const confirming = target !== null;
  const [loadingId, setLoadingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stepRef = useRef<HTMLDivElement>(null);
  const stepped = useRef(false);

  /* Each step starts at its first control: the choices, or the update's confirmation. */
  useEffect(() => {
    if (!stepped.current) {
      stepped.current = true;
      return;
    }
    const dialog = stepRef.current?.closest('dialog');
    const next = dialog?.querySelector<HTMLElement>(confirming ? '[data-dialog-footer] button:last-child' : '[data-step] button');
    next?.focus();
  }, [confirming]);

  const choose = async (match: ContactRecord) => {
    setError(null);
    setLoadingId(match.contact_user_id);
    try {
      setTarget(await fetchVersioned(match.contact_user_id));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoadingId(null);
    }
  };

  const applyUpdate = () => {
    if (!target) return;
    setError(null);
    const merged = duplicateUpdateOf(target.record, review.body);
    update.mutate(
      { id: target.record.contact_user_id, body: merged.body, etag: target.etag, addEmail: merged.addEmail },
      {
        onSuccess: () => onDone(`${contactDisplayName(target.record)} updated`),
        onError: async (e) => {
          if (e instanceof ApiError && e.hasCode(STALE_VERSION)) {
            setError('That contact changed meanwhile. Here is what would change now.');
            setTarget(await fetchVersioned(target.record.contact_user_id).catch(() => target));
          } else setError(errorMessage(e));
        },
      },
    );
  };

  const createSeparate = () => {
    setError(null);
    create.mutate(
      { ...review.body, allow_duplicates: 1 },
      { onSuccess: () => onDone('Contact saved as a separate contact'), onError: (e) => setError(errorMessage(e)) },
    );
  };

  const busy = create.isPending || update.isPending;
  const many = review.matches.length > 1;
  const rows = target ? changesFor(target.record, review.typed, folders, duplicateUpdateOf(target.record, review.body)) : [];

  return (
    <Dialog
      open
      onClose={onBack}
      preventClose={busy}
      size="lg"
      title={
        target
          ? `Update ${contactDisplayName(target.record)}?`
          : many
            ? `${review.matches.length} contacts have this e-mail or phone`
            : 'A contact with this e-mail or phone exists'
      }
      description={target ? 'These fields change; the others stay as they are.' : 'Nothing is saved until you choose.'}
      footer={
        target ? (
          <>
            <Button onClick={() => setTarget(null)} disabled={busy}>
              Back
            </Button>
            <Button variant="primary" onClick={applyUpdate} busy={update.isPending}>
              Update contact
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onBack} disabled={busy}>
              Back to the form
            </Button>
            <Button variant="primary" onClick={createSeparate} busy={create.isPending}>
              Create a separate contact
            </Button>
          </>
        )
      }
    >
      {error && (
        <p role="alert" className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {error}
        </p>
      )}
      <div ref={stepRef} data-step>
        {target ? (
          rows.length > 0 ? (
            <ChangeTable caption="Changes to the existing contact" headings={['Now', 'After the update']} rows={rows} />
          ) : (
            <p className="text-sm text-zinc-700">The existing contact already has every value you typed.</p>
          )
        ) : (
          <ul className="divide-y divide-zinc-100" aria-label="Existing contacts">
            {review.matches.map((m) => (
              <MatchSummary key={m.contact_user_id} match={m} onUpdate={() => void choose(m)} busy={loadingId === m.contact_user_id} />
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
