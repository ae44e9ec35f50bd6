import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { customFieldsQueryOptions } from '../../api/custom-fields';
import { notRestoredQueryOptions, refusedCsvUrl, useUndoImport, type ImportRecord } from '../../api/imports';
import { Button, buttonClass } from '../../components/ui/button';
import { DeleteDialog } from '../../components/ui/delete-dialog';
import { ErrorState } from '../../components/ui/error-state';
import { ProgressBar } from '../../components/ui/progress-bar';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { CountsList } from './import-counts';
import { fieldLabel } from './import-fields';

const contacts = (n: number) => formatCount(n, 'contact', 'contacts');

function NotRestored({ record }: { record: ImportRecord }) {
  const list = useQuery(notRestoredQueryOptions(record.id));
  const customFields = useQuery(customFieldsQueryOptions()).data ?? [];
  if (list.isPending) return <Spinner label="Reading the values left as they are…" />;
  if (list.isError)
    return (
      <ErrorState
        title="The values left as they are could not be read"
        message={errorMessage(list.error)}
        onRetry={() => void list.refetch()}
      />
    );
  return (
    <div>
      <h3 className="text-sm font-semibold text-zinc-900">Not restored: changed since the import</h3>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-zinc-700">
        {list.data.map((item, i) => (
          <li key={i}>
            <Link to={`/contacts/${encodeURIComponent(item.contact_id)}`} className="font-medium text-indigo-700 underline">
              {item.name || 'A contact without a name'}
            </Link>
            :{' '}
            {item.field === 'contact'
              ? item.reason
              : `${item.field === 'address' ? 'Address' : fieldLabel(item.field, customFields)} — ${item.reason}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

function UndoResult({ record }: { record: ImportRecord }) {
  if (record.status === 'undoing') return <ProgressBar value={record.rows_done} max={record.row_count} label="Undoing the import…" />;
  const { created, updated } = record.counts;
  return (
    <div className="space-y-3">
      <p role="status" className="text-sm font-medium text-emerald-800">
        Import undone: {contacts(created)} it created removed
        {updated > 0 ? `; ${contacts(updated)} it updated ${updated === 1 ? 'has its' : 'have their'} earlier values back` : ''}
        {record.not_restored > 0 ? `, except ${formatCount(record.not_restored, 'value', 'values')} changed since.` : '.'}
      </p>
      {record.not_restored > 0 && <NotRestored record={record} />}
    </div>
  );
}

/** Step 5: what the import did, its refused rows as a CSV file, and undoing it (after a confirmation). */
export function DoneStep({ record }: { record: ImportRecord }) {
  const undo = useUndoImport(record.id);
  const [asking, setAsking] = useState(false);
  const undone = record.status === 'undoing' || record.status === 'undone';
  const refused = record.counts.refused;

  return (
    <Section title={undone ? 'Import undone' : 'Import finished'}>
      <div className="space-y-4">
        <p className="text-sm text-zinc-700">
          {record.filename}: {formatCount(record.row_count, 'row', 'rows')} read.
          {refused > 0 ? ` ${formatCount(refused, 'row was', 'rows were')} refused; the file of refused rows says why for each.` : ''}
        </p>
        <CountsList counts={record.counts} label="Import counts" />
        <div className="flex flex-wrap gap-2">
          {refused > 0 && (
            <a href={refusedCsvUrl(record.id)} download className={buttonClass('secondary')}>
              Download refused rows
            </a>
          )}
          <Link to="/contacts" className={buttonClass('secondary')}>
            Go to contacts
          </Link>
          {!undone && (
            <Button variant="danger-ghost" onClick={() => setAsking(true)}>
              Undo import
            </Button>
          )}
        </div>
        {undone && <UndoResult record={record} />}
      </div>
      {/* Not a delete, but the same ask-act-announce-close: the undo is queued, and its result shows below. */}
      <DeleteDialog
        item={asking ? record : null}
        remove={undo}
        idOf={() => undefined}
        title={() => 'Undo this import?'}
        confirmLabel="Undo import"
        deleted={() => 'Undoing the import…'}
        onClose={() => setAsking(false)}
      >
        <p>
          The {contacts(record.counts.created)} it created are removed
          {record.counts.updated > 0 ? `, and the ${contacts(record.counts.updated)} it updated get their earlier values back` : ''}. A
          value changed since the import is left as it is, and listed.
        </p>
      </DeleteDialog>
    </Section>
  );
}
