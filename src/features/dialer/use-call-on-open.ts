import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { LiveSnapshot } from '../../api/dial-sessions';

const digits = (phone: string) => phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

/**
 * A phone link opens its one-contact session with ?call=<number>: once the contact is up and may be called, that
 * number is chosen and called, once. The parameter is then dropped, so a reload does not call again.
 */
export function useCallOnOpen(
  contact: LiveSnapshot['contact'],
  canCall: boolean,
  choose: (contactId: string, phone: string) => void,
  call: (phone: string) => void,
) {
  const [search, setSearch] = useSearchParams();
  const wanted = search.get('call');
  const done = useRef(false);
  const handlers = useRef({ choose, call });
  handlers.current = { choose, call };

  useEffect(() => {
    if (!wanted || done.current || !canCall || !contact) return;
    done.current = true;
    const match = (contact.phones ?? []).find((p) => digits(p.phone_number) === digits(wanted));
    const phone = match?.phone_number ?? wanted;
    handlers.current.choose(contact.contact_user_id, phone);
    handlers.current.call(phone);
    // From this render's own parameters (the ones holding `call`), not an updater's: the grid's ?search= once came
    // along into the dialer's address that way.
    const next = new URLSearchParams(search);
    next.delete('call');
    setSearch(next, { replace: true });
  }, [wanted, canCall, contact, search, setSearch]);
}
