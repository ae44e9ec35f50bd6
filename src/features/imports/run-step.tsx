import { Link } from 'react-router';
import type { ImportRecord } from '../../api/imports';
import { ProgressBar } from '../../components/ui/progress-bar';
import { Section } from '../../components/ui/section';
import { formatCount } from '../../lib/format';
import { CountsList } from './import-counts';

/** Step 4: the job's progress (the import is asked for again every half second meanwhile), and its counts so far. */
export function RunStep({ record }: { record: ImportRecord }) {
  const queued = record.status === 'queued';
  return (
    <Section title={queued ? 'Import waiting to start' : 'Importing'}>
      <div className="space-y-4">
        <ProgressBar
          value={record.rows_done}
          max={record.row_count}
          label={
            queued
              ? `Waiting to start: ${formatCount(record.row_count, 'row', 'rows')} to import…`
              : `Importing: ${record.rows_done.toLocaleString()} of ${formatCount(record.row_count, 'row', 'rows')} done`
          }
        />
        <CountsList counts={record.counts} label="Counts so far" />
        <p className="text-sm text-zinc-600">
          You can leave this page: the import goes on, and{' '}
          <Link to="/contacts/import" className="font-medium text-indigo-700 underline">
            past imports
          </Link>{' '}
          lead back to it.
        </p>
      </div>
    </Section>
  );
}
