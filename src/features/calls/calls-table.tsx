import { Link } from 'react-router';
import type { ListedCallRecord } from '../../../server/contracts/calls';
import { formatDateTime, formatPhone } from '../../lib/format';
import { contactOf, formatDuration, ResultCell } from '../usage/session-calls';

const TRANSCRIPT_WORDS: Record<ListedCallRecord['transcript_status'], string> = {
  none: '—',
  queued: 'Transcribing',
  processing: 'Transcribing',
  completed: 'Transcribed',
  summarized: 'Transcribed',
  failed: 'Failed',
  unavailable: 'Unavailable',
  deleted: 'Deleted',
};

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:underline';
const HEADERS = ['Contact', 'Number', 'Result', 'Duration', 'Transcript', 'When'];

/** Calls side by side in one session stay together, under a row naming the session (newest first, as listed). */
export function bySession(calls: ListedCallRecord[]): { sessionId: string; memberName: string; calls: ListedCallRecord[] }[] {
  const groups: { sessionId: string; memberName: string; calls: ListedCallRecord[] }[] = [];
  for (const call of calls) {
    const last = groups[groups.length - 1];
    if (last?.sessionId === call.session_id) last.calls.push(call);
    else groups.push({ sessionId: call.session_id, memberName: call.member_name, calls: [call] });
  }
  return groups;
}

type Props = { calls: ListedCallRecord[]; showMember: boolean; running: Set<string>; onSession: (sessionId: string) => void };

/** A page of calls grouped by session; each call opens in the viewer, each session shows its calls alone or resumes. */
export function CallsTable({ calls, showMember, running, onSession }: Props) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Calls, newest first, by dial session</caption>
        <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
          <tr className="border-y border-zinc-200">
            {HEADERS.map((h) => (
              <th key={h} scope="col" className={`px-3 py-2 whitespace-nowrap ${h === 'Duration' ? 'text-right' : 'text-left'}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        {bySession(calls).map((group) => (
          <tbody key={`${group.sessionId}-${group.calls[0]!.call_id}`} className="divide-y divide-zinc-100 border-b border-zinc-200">
            <tr className="bg-zinc-50/60">
              <th scope="rowgroup" colSpan={HEADERS.length} className="px-3 py-1.5 text-left text-xs font-medium text-zinc-600">
                <span className="mr-3">
                  Session {group.sessionId}
                  {showMember ? ` · ${group.memberName}` : ''}
                </span>
                <button type="button" onClick={() => onSession(group.sessionId)} className={`${linkClass} mr-3`}>
                  Only this session<span className="sr-only"> ({group.sessionId})</span>
                </button>
                {running.has(group.sessionId) && (
                  <Link to={`/dialer/${encodeURIComponent(group.sessionId)}`} className={linkClass}>
                    Resume session<span className="sr-only"> {group.sessionId}</span>
                  </Link>
                )}
              </th>
            </tr>
            {group.calls.map((call) => (
              <tr key={call.call_id} className="hover:bg-zinc-50">
                <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                  <Link to={`/calls/${encodeURIComponent(call.call_id)}`} className={linkClass}>
                    {contactOf(call)}
                    <span className="sr-only">: view call of {formatDateTime(call.start_when)}</span>
                  </Link>
                </th>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatPhone(call.phone)}</td>
                <ResultCell call={call} />
                <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{formatDuration(call.duration)}</td>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{TRANSCRIPT_WORDS[call.transcript_status]}</td>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatDateTime(call.start_when)}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
