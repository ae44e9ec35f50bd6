import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { contactRecordQueryOptions } from '../../api/contact-details';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, errorMessage } from '../../lib/api-client';
import { contactDisplayName } from '../contacts/contact-name';
import { AddressSection } from './address-section';
import { CallsSection } from './calls-section';
import { ContactPageProvider, StaleNotice } from './contact-context';
import { ContactHeader } from './contact-header';
import { CustomFieldsSection } from './custom-fields-section';
import { ActivitySection, AuditSection } from './history-sections';
import { NotesSection } from './notes-section';
import { EmailsSection, PhonesSection } from './points-section';
import { TagsSection } from './tags-section';

/** One contact: who it is, how to reach it, how it is filed, what was said and what changed. */
export function ContactPage({ id }: { id: string }) {
  const query = useQuery(contactRecordQueryOptions(id));
  const name = query.data ? contactDisplayName(query.data.record) : null;

  useEffect(() => {
    document.title = `${name ?? 'Contact'} · Ringbook`;
  }, [name]);

  if (query.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24" aria-busy="true">
        <Spinner label="Loading contact…" />
      </div>
    );
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <EmptyState
          title="Contact not found"
          action={
            <Link
              to="/contacts"
              className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
            >
              Go to contacts
            </Link>
          }
        >
          There is no such contact, it was deleted for good, or it belongs to someone outside your team.
        </EmptyState>
      );
    }
    return (
      <div className="px-4">
        <ErrorState
          title="The contact could not be loaded"
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </div>
    );
  }

  return (
    <ContactPageProvider versioned={query.data} reload={query.refetch}>
      <div className="mx-auto w-full max-w-6xl space-y-4 px-4 py-5 sm:px-6">
        <ContactHeader />
        <StaleNotice />
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0 space-y-4">
            <PhonesSection />
            <EmailsSection />
            <AddressSection />
            <TagsSection />
            <CustomFieldsSection />
          </div>
          <div className="min-w-0 space-y-4">
            <CallsSection />
            <NotesSection />
            <ActivitySection />
            <AuditSection />
          </div>
        </div>
      </div>
    </ContactPageProvider>
  );
}
