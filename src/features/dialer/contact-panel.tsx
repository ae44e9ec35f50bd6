import { useId, type ReactNode } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { addressLines, formatFieldValue, formatPhone, phoneTypeWord } from '../../lib/format';
import { contactDisplayName } from '../contacts/contact-name';
import { ContactEditor } from './contact-editor';
import { ContactNotes } from './contact-notes';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-zinc-500">{term}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}

const none = <span className="text-zinc-400">—</span>;

function phoneLabel(p: NonNullable<ContactRecord['phones']>[number]): string {
  const kind = p.label || phoneTypeWord(p.type_name);
  return `${formatPhone(p.phone_number)}${kind ? ` (${kind})` : ''}${p.is_primary ? ' · primary' : ''}`;
}

/** Preview mode: the rep picks which of the contact's numbers to call. */
function PhoneChoice({
  contact,
  phone,
  onPhone,
  disabled,
}: {
  contact: ContactRecord;
  phone: string;
  onPhone: (phone: string) => void;
  disabled: boolean;
}) {
  const labelId = useId();
  const phones = contact.phones ?? [];
  if (!phones.length) return <p className="text-sm text-zinc-500">This contact has no phone number.</p>;
  return (
    <div role="radiogroup" aria-labelledby={labelId} className="space-y-1">
      <p id={labelId} className="text-sm font-medium text-zinc-700">
        Number to call
      </p>
      {phones.map((p) => (
        <label key={p.id} className="flex cursor-pointer items-center gap-2 text-sm text-zinc-800">
          <input
            type="radio"
            name={`phone-${contact.contact_user_id}`}
            value={p.phone_number}
            checked={phone === p.phone_number}
            disabled={disabled}
            onChange={() => onPhone(p.phone_number)}
            className="size-4 accent-indigo-600"
          />
          {phoneLabel(p)}
        </label>
      ))}
    </div>
  );
}

type Props = {
  sessionId: string;
  contact: ContactRecord;
  preview: boolean;
  phone: string;
  onPhone: (phone: string) => void;
  canChoosePhone: boolean;
  onContactSaved: (message: string) => void;
  onAddNote: (note: string, done: () => void) => void;
  notePending: boolean;
  noteError: unknown;
};

/** The contact on screen: name, numbers, details, quick edits and the notes history. */
export function ContactPanel({
  sessionId,
  contact,
  preview,
  phone,
  onPhone,
  canChoosePhone,
  onContactSaved,
  onAddNote,
  notePending,
  noteError,
}: Props) {
  const headingId = useId();
  const address = addressLines(contact.primary_address);
  const emails = contact.emails?.length
    ? contact.emails.map((e) => e.email_address)
    : [contact.primary_email?.email_address].filter(Boolean);
  const customFields = (contact.custom_fields ?? []).filter((f) => f.value !== null && f.value !== '');

  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      <div>
        <h2 id={headingId} className="text-xl font-semibold tracking-tight text-zinc-900">
          {contactDisplayName(contact)}
        </h2>
        {contact.do_not_call === '1' && <p className="mt-1 text-sm font-medium text-red-700">Marked do not call</p>}
      </div>

      {preview ? (
        <PhoneChoice contact={contact} phone={phone} onPhone={onPhone} disabled={!canChoosePhone} />
      ) : (
        <dl>
          <Detail term="Phones">
            {(contact.phones ?? []).map((p) => (
              <div key={p.id}>{phoneLabel(p)}</div>
            ))}
          </Detail>
        </dl>
      )}

      <dl className="divide-y divide-zinc-100">
        <Detail term="E-mail">{emails.length ? emails.map((e) => <div key={e}>{e}</div>) : none}</Detail>
        <Detail term="Address">{address.length ? address.map((line) => <div key={line}>{line}</div>) : none}</Detail>
        <Detail term="Folder">{contact.category?.name || none}</Detail>
        <Detail term="Tags">
          {contact.tags?.length ? (
            <ul className="flex flex-wrap gap-1">
              {contact.tags.map((t) => (
                <li key={t.id} className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700">
                  {t.title}
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </Detail>
        {customFields.map((f) => (
          <Detail key={f.custom_field_id} term={f.name}>
            {formatFieldValue(f.type, f.value)}
          </Detail>
        ))}
      </dl>

      <ContactEditor key={contact.contact_user_id} sessionId={sessionId} contact={contact} onSaved={onContactSaved} />
      <ContactNotes
        key={`notes-${contact.contact_user_id}`}
        sessionId={sessionId}
        contact={contact}
        onAdd={onAddNote}
        pending={notePending}
        error={noteError}
      />
    </section>
  );
}
