import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { importsQueryOptions, type ImportRecord } from '../../api/imports';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { useSession } from '../auth/use-session';
import { formatWhen } from './import-dates';
import { ImportTable } from './import-table';

/** An import's status in words, with its progress while it runs. */
export function statusText(record: ImportRecord): string {
  switch (record.status) {
    case 'uploaded':
      return 'Uploaded, not run yet';
    case 'queued':
      return record.dry_run ? 'Dry run waiting to start' : 'Waiting to start';
    case 'running':
      return `${record.dry_run ? 'Dry run' : 'Importing'}: ${record.rows_done.toLocaleString()} of ${record.row_count.toLocaleString()} rows`;
    case 'done':
      return record.dry_run ? 'Dry run done, not run yet' : 'Imported';
    case 'failed':
      return 'Stopped by an error';
    case 'undoing':
      return 'Being undone';
    case 'undone':
      return 'Undone';
  }
}

const HEADERS = ['File', 'When', 'Who', 'Status', 'Rows', 'Created', 'Updated', 'Skipped', 'Refused'];

/** Past imports, newest first (one's own; an admin sees the team's): each opens where it stands. */
export function ImportsHistory() {
  const list = useQuery(importsQueryOptions());
  /* One's own imports are "You"; a manager or the vendor sees the team's, each named by the server. */
  const { member } = useSession();
  const who = (record: ImportRecord) => (member && String(record.member_id) === member.user_id ? 'You' : record.member_name);
  return (
    <Section title="Past imports">
      {list.isPending && <Spinner label="Loading past imports…" />}
      {list.isError && (
        <ErrorState title="Past imports could not be loaded" message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      )}
      {list.data?.length === 0 && <EmptyState title="No imports yet">Files you import are listed here, with what each did.</EmptyState>}
      {list.data && list.data.length > 0 && (
        <ImportTable caption="Past imports, newest first" headings={HEADERS}>
          {list.data.map((record) => {
            const ran = record.status !== 'uploaded' && !(record.dry_run && record.status !== 'failed');
            const count = (n: number) => (ran ? n.toLocaleString() : '—');
            return (
              <tr key={record.id}>
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  <Link to={`/contacts/imports/${encodeURIComponent(record.id)}`} className="text-indigo-700 underline">
                    {record.filename}
                  </Link>
                </th>
                <td className="px-3 py-2 whitespace-nowrap">{formatWhen(record.created_at)}</td>
                <td className="px-3 py-2">{who(record)}</td>
                <td className="px-3 py-2">{statusText(record)}</td>
                <td className="px-3 py-2 tabular-nums">{formatCount(record.row_count, 'row', 'rows')}</td>
                <td className="px-3 py-2 tabular-nums">{count(record.counts.created)}</td>
                <td className="px-3 py-2 tabular-nums">{count(record.counts.updated)}</td>
                <td className="px-3 py-2 tabular-nums">{count(record.counts.skipped)}</td>
                <td className="px-3 py-2 tabular-nums">{count(record.counts.refused)}</td>
              </tr>
            );
          })}
        </ImportTable>
      )}
    </Section>
  );
}
