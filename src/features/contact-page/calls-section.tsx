import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { contactCallsQueryOptions } from '../../api/dial-sessions';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, formatPhone } from '../../lib/format';
import { callDuration, callKept, callOutcome } from './call-summary';
import { useContactPage } from './contact-context';

function CallItem({ call }: { call: ListedCallRecord }) {
  const when = formatDateTime(call.start_when);
  return (
    <li className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm">
      <Link to={`/calls/${encodeURIComponent(call.call_id)}`} className="font-medium text-indigo-700 hover:underline">
        <span className="sr-only">Call of </span>
        {when}
      </Link>
      <span className="text-zinc-800">{callOutcome(call)}</span>
      <span className="text-zinc-500 tabular-nums">
        <span className="sr-only">Duration </span>
        {callDuration(call.duration)}
      </span>
      <span className="w-full text-xs text-zinc-500">
        {[call.member_name, formatPhone(call.phone), ...callKept(call)].filter(Boolean).join(' · ')}
      </span>
    </li>
  );
}

/** The contact's calls, newest first, each leading to the call viewer. */
export function CallsSection() {
  const { contact } = useContactPage();
  const calls = useQuery(contactCallsQueryOptions(contact.contact_user_id));
  const items = calls.data?.calls ?? [];
  const more = (calls.data?.total ?? 0) - items.length;

  return (
    <Section title="Calls">
      {calls.isPending && <Spinner label="Loading calls…" />}
      {calls.isError && (
        <ErrorState
          title="The calls could not be loaded"
          message={errorMessage(calls.error)}
          onRetry={() => void calls.refetch()}
          retrying={calls.isFetching}
        />
      )}
      {calls.isSuccess && items.length === 0 && <p className="text-sm text-zinc-500">No calls yet.</p>}
      {items.length > 0 && (
        <ul aria-label="Calls of this contact" className="divide-y divide-zinc-100">
          {items.map((call) => (
            <CallItem key={call.call_id} call={call} />
          ))}
        </ul>
      )}
      {more > 0 && <p className="pt-2 text-xs text-zinc-500">{`The ${items.length} newest are shown; ${more} older not.`}</p>}
    </Section>
  );
}
