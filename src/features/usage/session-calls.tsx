import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CallRecord } from '../../../server/contracts/dial-sessions';
import { sessionCallsQueryOptions } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, formatPhone } from '../../lib/format';

/** Seconds as m:ss (1:05), or h:mm:ss past an hour. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(rest)}` : `${m}:${pad(rest)}`;
}

const voicemailOf = (c: CallRecord) => (c.voicemail_sent ? `Dropped: ${c.voicemail_sent}` : c.voicemail === '1' ? 'Left' : 'No');
const resultOf = (c: CallRecord) => c.disposition || (c.end_when ? `No disposition (${c.hangup_status || 'ended'})` : 'In progress');

/** The calls of one session, a page at a time. */
export function SessionCalls({ sessionId, label }: { sessionId: string; label: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(sessionCallsQueryOptions(sessionId, page));

  if (query.isPending) return <Spinner label="Loading calls…" />;
  if (query.isError) {
    return (
      <ErrorState
        title="Calls could not be loaded"
        message={errorMessage(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const { calls, total_pages: pages, total_results: total } = query.data;
  if (!calls.length) return <p className="py-2 text-sm text-zinc-600">No calls were made in this session.</p>;

  return (
    <div className="flex flex-col gap-2" aria-busy={query.isPlaceholderData}>
      <div className="overflow-x-auto rounded-md border border-zinc-200 bg-white">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{label}</caption>
          <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase">
            <tr>
              {['Contact', 'Number', 'Result', 'Duration', 'Voicemail', 'When'].map((h) => (
                <th key={h} scope="col" className={`px-3 py-2 whitespace-nowrap ${h === 'Duration' ? 'text-right' : 'text-left'}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {calls.map((call) => (
              <tr key={call.call_id}>
                <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-zinc-900">
                  {call.contact_name || `Contact ${call.user_id}`}
                </th>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatPhone(call.phone)}</td>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">
                  {resultOf(call)}
                  {call.connected === '1' && (
                    <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700">Connected</span>
                  )}
                </td>
                <td className="px-3 py-2 text-right text-zinc-700 tabular-nums">{formatDuration(call.duration)}</td>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{voicemailOf(call)}</td>
                <td className="px-3 py-2 whitespace-nowrap text-zinc-700">{formatDateTime(call.start_when)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav aria-label={`Pages of ${label}`} className="flex items-center justify-end gap-2 text-sm text-zinc-600">
          <p aria-live="polite">
            Calls {((page - 1) * query.data.page_size + 1).toLocaleString()}–{Math.min(page * query.data.page_size, total).toLocaleString()}{' '}
            of {total.toLocaleString()}
          </p>
          <Button size="sm" onClick={() => setPage(page - 1)} disabled={page <= 1 || query.isPlaceholderData}>
            Previous calls
          </Button>
          <Button size="sm" onClick={() => setPage(page + 1)} disabled={page >= pages || query.isPlaceholderData}>
            Next calls
          </Button>
        </nav>
      )}
    </div>
  );
}
