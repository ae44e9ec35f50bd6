import { useQuery } from '@tanstack/react-query';
import type { Table } from '@tanstack/react-table';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactListParams } from '../../api/contacts';
import { tagsQueryOptions } from '../../api/tags';
import { Button, buttonClass } from '../../components/ui/button';
import { InlineSelect } from '../../components/ui/select';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ColumnsMenu } from './columns-menu';
import { SORT_CHOICES } from './use-contact-list-params';

type Props = {
  params: ContactListParams;
  update: (changes: Record<string, string | number | null | undefined>, options?: { replace?: boolean }) => void;
  /** The caller's team, for managers and the vendor (null for a rep: no owner filter or sort). */
  owners: { id: string; name: string }[] | null;
};

type ActionsProps = {
  table: Table<ContactRecord>;
  onNewContact: () => void;
  /** Dials every contact of the current folder, search, tag and owner (absent while the list is empty). */
  onDialAll?: (() => void) | undefined;
  /** Downloads the same contacts as a CSV file (absent while the list is empty). */
  onExport?: (() => void) | undefined;
};

/** What applies to the list as a whole: its columns, exporting and dialing all of it, and a new contact. */
export function ContactsActions({ table, onNewContact, onDialAll, onExport }: ActionsProps) {
  return (
    // Wraps on a phone: four buttons are wider than its screen.
    <div className="flex flex-wrap items-center gap-2">
      <ColumnsMenu table={table} />
      <Link
        to="/contacts/import"
        className={buttonClass('secondary')}
        title="Bring contacts in from a CSV file; past imports are listed there too"
      >
        Import
      </Link>
      <Button onClick={onExport} disabled={!onExport} title="Download the contacts shown, every page of them, as a CSV file">
        Export
      </Button>
      <Button onClick={onDialAll} disabled={!onDialAll}>
        Dial all
      </Button>
      <Button variant="primary" onClick={onNewContact}>
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
          <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
        </svg>
        New contact
      </Button>
    </div>
  );
}

function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 300);
  /*
   * Whether the box holds typing not yet sent to the URL. Only typing goes to the URL, and the URL does not overwrite
   * typing: on a slow machine the URL's answer to one search came while the next was typed, the box took it, sent it
   * back as typing, and box and URL swapped values from then on (a journey on a loaded CI machine).
   */
  const typing = useRef(false);

  /* Typing → URL (debounced). */
  useEffect(() => {
    if (!typing.current) return;
    typing.current = false;
    const next = debounced.trim();
    if (next !== value) onChange(next);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the debounced text changes
  }, [debounced]);

  /* URL → box (back/forward, "Clear filters"), unless the user is typing. */
  useEffect(() => {
    if (typing.current) return;
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);

  return (
    <div className="relative w-full sm:max-w-xs">
      <svg
        viewBox="0 0 20 20"
        fill="currentColor"
        className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-400"
        aria-hidden="true"
      >
        <path
          fillRule="evenodd"
          d="M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM2 9a7 7 0 1 1 12.452 4.391l3.328 3.329a.75.75 0 1 1-1.06 1.06l-3.329-3.328A7 7 0 0 1 2 9Z"
          clipRule="evenodd"
        />
      </svg>
      <input
        type="search"
        role="searchbox"
        aria-label="Search contacts"
        placeholder="Search name, e-mail or phone"
        value={text}
        maxLength={100}
        onChange={(e) => {
          typing.current = true;
          setText(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(text.trim());
        }}
        className="block h-9 w-full rounded-md border border-zinc-300 bg-white pr-3 pl-8 text-sm shadow-sm placeholder:text-zinc-400 focus-visible:border-indigo-500"
      />
    </div>
  );
}

const sortValue = (sortBy: string, order: string) => `${sortBy}:${order}`;

export function ContactsToolbar({ params, update, owners }: Props) {
  const tags = useQuery(tagsQueryOptions());
  const tagOptions = [{ value: '', label: 'All tags' }, ...(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.title }))];
  if (params.tag_id && !tagOptions.some((o) => o.value === params.tag_id)) {
    tagOptions.push({ value: params.tag_id, label: tags.isPending ? 'Loading…' : 'A tag since deleted' });
  }
  const ownerOptions = owners ? [{ value: '', label: 'All owners' }, ...owners.map((o) => ({ value: o.id, label: o.name }))] : [];
  if (owners && params.owner_id && !ownerOptions.some((o) => o.value === params.owner_id)) {
    ownerOptions.push({ value: params.owner_id, label: 'Someone outside your team' });
  }
  const sortOptions = SORT_CHOICES.filter((c) => owners || !c.managersOnly).map((c) => ({
    value: sortValue(c.sortBy, c.order),
    label: c.label,
  }));
  const currentSort = sortValue(params.sort_by, params.sort_order);
  if (!sortOptions.some((o) => o.value === currentSort)) {
    sortOptions.push({
      value: currentSort,
      label: `${params.sort_by.replace('_', ' ')} (${params.sort_order === 'ASC' ? 'ascending' : 'descending'})`,
    });
  }

  return (
    <div role="search" aria-label="Find contacts" className="flex flex-wrap items-center gap-2">
      <SearchBox value={params.search ?? ''} onChange={(search) => update({ search: search || null }, { replace: true })} />
      <InlineSelect
        label="Filter by tag"
        hideLabel
        options={tagOptions}
        value={params.tag_id ?? ''}
        onChange={(e) => update({ tag: e.target.value || null })}
        className="max-w-44"
      />
      {owners && (
        <InlineSelect
          label="Filter by owner"
          hideLabel
          options={ownerOptions}
          value={params.owner_id ?? ''}
          onChange={(e) => update({ owner: e.target.value || null })}
          className="max-w-44"
        />
      )}
      <InlineSelect
        label="Sort by"
        hideLabel
        options={sortOptions}
        value={currentSort}
        onChange={(e) => {
          const [sortBy, order] = e.target.value.split(':');
          update({ sort_by: sortBy, sort_order: order });
        }}
        className="max-w-52"
      />
    </div>
  );
}
