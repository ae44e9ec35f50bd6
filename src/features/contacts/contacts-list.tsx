import type { UseQueryResult } from '@tanstack/react-query';
import type { Table } from '@tanstack/react-table';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactSortColumn } from '../../../server/contracts/contacts';
import type { ContactListParams, ContactPage } from '../../api/contacts';
import { Button, buttonClass } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { errorMessage } from '../../lib/api-client';
import { ContactCards } from './contact-cards';
import { ContactsGrid } from './contacts-grid';
import { Pagination } from './pagination';
import { useMediaQuery } from './use-media-query';

type Props = {
  table: Table<ContactRecord>;
  list: UseQueryResult<ContactPage>;
  params: ContactListParams;
  heading: string;
  hasFilters: boolean;
  emptyText: string;
  folderName: string | undefined;
  onClearFilters: () => void;
  onNewContact: () => void;
  onSort: (sortKey: ContactSortColumn) => void;
  onOpen: (contact: ContactRecord) => void;
  onEdit: (contact: ContactRecord) => void;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
};

function Empty({
  hasFilters,
  emptyText,
  folderName,
  inFolder,
  onClearFilters,
  onNewContact,
}: Pick<Props, 'hasFilters' | 'emptyText' | 'folderName' | 'onClearFilters' | 'onNewContact'> & { inFolder: boolean }) {
  if (hasFilters) {
    return (
      <EmptyState title="No contacts match" action={<Button onClick={onClearFilters}>Clear search and filters</Button>}>
        {emptyText} Try a different search or clear the filters.
      </EmptyState>
    );
  }
  if (inFolder)
    return <EmptyState title="This folder is empty">Contacts you file in {folderName ?? 'this folder'} appear here.</EmptyState>;
  return (
    <EmptyState
      title="No contacts yet"
      action={
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="primary" onClick={onNewContact}>
            Add your first contact
          </Button>
          <Link to="/contacts/import" className={buttonClass('secondary')}>
            Import a CSV file
          </Link>
        </div>
      }
    >
      Contacts you add or{' '}
      <Link to="/contacts/import" className="font-medium text-indigo-700 underline">
        import
      </Link>{' '}
      appear here.
    </EmptyState>
  );
}

/** The list itself: a grid on wide screens, cards on narrow ones; loading, error and empty states; the pager. */
export function ContactsList(props: Props) {
  const { table, list, params, heading, onSort, onOpen, onEdit, onPage, onPageSize } = props;
  const narrow = useMediaQuery('(max-width: 639px)');
  const sectionRef = useRef<HTMLElement>(null);
  const page = list.data;

  /* On a phone the cards are in the page's flow: a new page starts at the top of the list (the grid scrolls itself). */
  const shownPage = page && !list.isPlaceholderData ? page.page : null;
  useEffect(() => {
    const section = sectionRef.current;
    if (narrow && shownPage !== null && section && section.getBoundingClientRect().top < 0) section.scrollIntoView({ block: 'start' });
  }, [narrow, shownPage]);
  const loading = list.isPending;
  const showError = list.isError && !page;
  const isEmpty = !loading && !showError && page !== undefined && page.contacts.length === 0;

  return (
    <section
      ref={sectionRef}
      aria-label="Contacts"
      aria-busy={loading || list.isPlaceholderData}
      className="flex flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm sm:min-h-0 sm:flex-1"
    >
      {showError && (
        <ErrorState
          title="Contacts could not be loaded"
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      )}
      {loading && (
        <p className="sr-only" role="status">
          Loading contacts…
        </p>
      )}
      {!showError && !isEmpty && narrow && <ContactCards table={table} loading={loading} onEdit={onEdit} caption={heading} />}
      {!showError && !isEmpty && !narrow && (
        <ContactsGrid
          table={table}
          params={params}
          totalResults={page?.total_results ?? 0}
          onSort={onSort}
          onOpen={onOpen}
          onEdit={onEdit}
          loading={loading}
          refreshing={list.isFetching && !loading}
          caption={heading}
        />
      )}
      {isEmpty && <Empty {...props} inFolder={Boolean(params.category_id)} />}
      {page && !showError && (
        <div className="shrink-0 border-t border-zinc-200 bg-zinc-50 px-3 py-2">
          <Pagination
            page={params.page}
            pageSize={params.page_size}
            totalPages={page.total_pages}
            totalResults={page.total_results}
            busy={list.isPlaceholderData}
            onPage={onPage}
            onPageSize={onPageSize}
          />
        </div>
      )}
    </section>
  );
}
