import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { memberName, teamQueryOptions } from '../../api/members';
import { Button } from '../../components/ui/button';
import { contactDisplayName } from '../contacts/contact-name';
import { formatDate, ratingValue } from '../../lib/format';
import { CallContactButton } from './call-contact-button';
import { useContactPage } from './contact-context';
import { DetailsDialog } from './details-dialog';
import { ContactLifecycle } from './contact-lifecycle';
import { MoveDialog, TransferDialog } from './placement-dialogs';

type Open = 'details' | 'move' | 'transfer' | null;

function Stars({ value }: { value: number | null }) {
  if (!value) return <span className="text-zinc-500">Not rated</span>;
  return (
    <span className="inline-flex items-center gap-0.5">
      <span className="sr-only">{`${value} of 5 stars`}</span>
      {[1, 2, 3, 4, 5].map((n) => (
        <svg
          key={n}
          viewBox="0 0 20 20"
          fill="currentColor"
          className={`size-4 ${n <= value ? 'text-amber-400' : 'text-zinc-200'}`}
          aria-hidden="true"
        >
          <path d="M10.868 2.884c-.321-.772-1.415-.772-1.736 0l-1.83 4.401-4.753.381c-.833.067-1.171 1.107-.536 1.651l3.62 3.102-1.106 4.637c-.194.813.691 1.456 1.405 1.02L10 15.591l4.069 2.485c.713.436 1.598-.207 1.404-1.02l-1.106-4.637 3.62-3.102c.635-.544.297-1.584-.536-1.65l-4.752-.382-1.831-4.401Z" />
        </svg>
      ))}
    </span>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-1.5">
      <dt className="text-zinc-500">{term}</dt>
      <dd className="font-medium text-zinc-800">{children}</dd>
    </div>
  );
}

/** Who the contact is and where it sits (owner, folder), with the changes that apply to the whole contact. */
export function ContactHeader() {
  const { contact } = useContactPage();
  const team = useQuery(teamQueryOptions());
  const [open, setOpen] = useState<Open>(null);
  const headingId = useId();
  const name = contactDisplayName(contact);
  const owner = team.data?.find((m) => m.user_id === contact.owner_id);
  const ownerName = owner ? memberName(owner) : team.isPending ? 'Loading…' : 'Another member';
  const folderName = contact.category_id !== '0' ? contact.category?.name || 'A folder since deleted' : 'No folder';
  const trashed = contact.trashed === '1';

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-500">
        <Link to="/contacts" className="hover:text-indigo-700 hover:underline">
          Contacts
        </Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{name}</span>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id={headingId} className="flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight text-zinc-900">
            <span className="break-words">{name}</span>
            {contact.do_not_call === '1' && (
              <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">Do not call</span>
            )}
            {trashed && <span className="rounded-full bg-zinc-200 px-2 py-0.5 text-xs font-semibold text-zinc-700">In the trash</span>}
          </h1>
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            <Fact term="Owner">{ownerName}</Fact>
            <Fact term="Folder">{folderName}</Fact>
            <Fact term="Rating">
              <Stars value={ratingValue(contact.rating)} />
            </Fact>
            <Fact term="Added">{formatDate(contact.date_added)}</Fact>
          </dl>
        </div>
        <div className="flex flex-wrap gap-2">
          <CallContactButton />
          <Button size="sm" onClick={() => setOpen('details')}>
            Edit details
          </Button>
          <Button size="sm" onClick={() => setOpen('move')}>
            Move to folder
          </Button>
          <Button size="sm" onClick={() => setOpen('transfer')}>
            Transfer
          </Button>
          {!trashed && <ContactLifecycle name={name} />}
        </div>
      </div>
      {trashed && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm text-zinc-800">
          <p>This contact is in the trash: it does not appear in lists or dial sessions.</p>
          <div className="flex gap-2">
            <ContactLifecycle name={name} />
          </div>
        </div>
      )}
      <DetailsDialog open={open === 'details'} onClose={() => setOpen(null)} />
      <MoveDialog open={open === 'move'} onClose={() => setOpen(null)} />
      <TransferDialog open={open === 'transfer'} onClose={() => setOpen(null)} team={team.data ?? []} />
    </section>
  );
}
