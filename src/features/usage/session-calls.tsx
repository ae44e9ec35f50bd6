import { Link } from 'react-router';
import type { CallRecord } from '../../../server/contracts/dial-sessions';
import { formatDateTime, formatPhone } from '../../lib/format';

/** Seconds as m:ss (1:05), or h:mm:ss past an hour. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(rest)}` : `${m}:${pad(rest)}`;
}

const voicemailOf = (c: CallRecord) => (c.voicemail_sent ? `Dropped: ${c.voicemail_sent}` : c.voicemail === '1' ? 'Left' : 'No');
export const resultOf = (c: CallRecord) => c.disposition || (c.end_when ? `No disposition (${c.hangup_status || 'ended'})` : 'In progress');
export const contactOf = (c: CallRecord) => c.contact_name || `Contact ${c.user_id}`;

/** A call's result, with a mark when someone answered: the Result cell of every table of calls. */
export function ResultCell({ call }: { call: CallRecord }) {
  return (
    <td className="px-3 py-2 whitespace-nowrap text-zinc-700">
      {resultOf(call)}
      {call.connected === '1' && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">Connected</span>}
    </td>
  );
}

const HEADERS = ['Contact', 'Number', 'Result', 'Duration', 'Voicemail', 'When', 'Call'];

/** A page of one session's calls; each opens in the call viewer (/calls/{id}). */
export function SessionCalls({ calls, label }: { calls: CallRecord[]; label: string }) {
  return (
    // Relative, so the visually hidden texts of the last column scroll with the table instead of widening the page.
    <div className="relative overflow-x-auto">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{label}</caption>
        <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
          <tr className="border-y border-zinc-200">
            {HEADERS.map((h) => (
              <th key={h} scope="col" className={`px-3 py-2 whitespace-nowrap ${h === 'Duration' ? 'text-right' : 'text-left'}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {calls.map((call) => (
            <tr key={call.call_id} className="hover:bg-zinc-50">
              <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-900">
                {contactOf(call)}
              </th>
              <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatPhone(call.phone)}</td>
              <ResultCell call={call} />
              <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{formatDuration(call.duration)}</td>
              <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{voicemailOf(call)}</td>
              <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatDateTime(call.start_when)}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <Link
                  to={`/calls/${encodeURIComponent(call.call_id)}`}
                  className="font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:underline"
                >
                  View call<span className="sr-only"> with {contactOf(call)}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
