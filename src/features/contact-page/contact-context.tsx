import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { isStaleVersion, useSaveContact, type VersionedContact } from '../../api/contact-details';
import { Button } from '../../components/ui/button';
import { useStatus } from '../../components/ui/status-message';

type ContactPage = {
  contact: ContactRecord;
  /**
   * Saves fields of the contact itself with If-Match (the version on screen). Throws on failure; a stale version
   * (someone else saved first) also raises the page's notice, so callers show only other errors.
   */
  save: (body: Record<string, unknown>, done: string) => Promise<void>;
  saving: boolean;
  stale: boolean;
  reload: () => Promise<void>;
};

const ContactPageContext = createContext<ContactPage | null>(null);

export function ContactPageProvider({
  versioned,
  reload,
  children,
}: {
  versioned: VersionedContact;
  reload: () => Promise<unknown>;
  children: ReactNode;
}) {
  const id = versioned.record.contact_user_id;
  const mutation = useSaveContact(id);
  const { announce } = useStatus();
  const [stale, setStale] = useState(false);
  const { mutateAsync } = mutation;
  const etag = versioned.etag;

  const save = useCallback(
    async (body: Record<string, unknown>, done: string) => {
      try {
        await mutateAsync({ body, etag });
        setStale(false);
        announce(done);
      } catch (error) {
        if (isStaleVersion(error)) setStale(true);
        throw error;
      }
    },
    [mutateAsync, etag, announce],
  );

  const reloadContact = useCallback(async () => {
    await reload();
    setStale(false);
  }, [reload]);

  const value = useMemo(
    () => ({ contact: versioned.record, save, saving: mutation.isPending, stale, reload: reloadContact }),
    [versioned.record, save, mutation.isPending, stale, reloadContact],
  );
  return <ContactPageContext value={value}>{children}</ContactPageContext>;
}

export function useContactPage(): ContactPage {
  const page = useContext(ContactPageContext);
  if (!page) throw new Error('useContactPage must be used inside <ContactPageProvider>');
  return page;
}

/** Said where the user is (on the page, or in the dialog they saved from) when someone else saved first. */
export function StaleNotice() {
  const { stale, reload } = useContactPage();
  const [reloading, setReloading] = useState(false);
  if (!stale) return null;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p>
        Someone else changed this contact since you opened it, so your change was not saved. Reload to see theirs, then apply yours again.
      </p>
      <Button
        size="sm"
        busy={reloading}
        onClick={async () => {
          setReloading(true);
          try {
            await reload();
          } finally {
            setReloading(false);
          }
        }}
      >
        Reload the contact
      </Button>
    </div>
  );
}

/** An error worth showing in place: not a stale version (StaleNotice says that). */
export const localError = (error: unknown) => (isStaleVersion(error) ? null : error);
