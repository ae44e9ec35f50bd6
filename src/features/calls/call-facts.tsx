import { Link } from 'react-router';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { formatDateTime, formatPhone } from '../../lib/format';
import { contactOf, formatDuration, resultOf } from '../usage/session-calls';

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:underline';

/** What is known of the call: its outcome, length, the contact and the session (as links), who made it, and its notes. */
export function CallFacts({ call }: { call: ListedCallRecord }) {
  const facts: [string, React.ReactNode][] = [
    ['Disposition', resultOf(call)],
    ['Connected', call.connected === '1' ? 'Yes' : 'No'],
    ['Duration', formatDuration(call.duration)],
    [
      'Contact',
      <Link key="c" to={`/contacts/${encodeURIComponent(call.user_id)}`} className={linkClass}>
        {contactOf(call)}
      </Link>,
    ],
    ['Number', formatPhone(call.phone)],
    [
      'Session',
      <Link key="s" to={`/calls?session_id=${encodeURIComponent(call.session_id)}`} className={linkClass}>
        Session {call.session_id}
      </Link>,
    ],
    ['Made by', call.member_name],
    ['When', formatDateTime(call.start_when)],
  ];
  if (call.voicemail_sent) facts.push(['Voicemail dropped', call.voicemail_sent]);
  // email_sent: queued for the disposition; email_ok: the mail server took it (a refusal for good leaves it '0').
  if (call.email_sent === '1') facts.push(['Follow-up e-mail', call.email_ok === '1' ? 'Sent' : 'Not sent yet, or refused']);
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-zinc-600">{term}</dt>
            <dd className="min-w-0 break-words text-zinc-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h3 className="text-sm font-medium text-zinc-600">Notes</h3>
        {call.note ? (
          <p className="text-sm whitespace-pre-line text-zinc-900">{call.note}</p>
        ) : (
          <p className="text-sm text-zinc-500">No notes on this call.</p>
        )}
      </div>
    </div>
  );
}
