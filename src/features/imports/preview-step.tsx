import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  isWorking,
  previewQueryOptions,
  useRunImport,
  type ImportDuplicates,
  type ImportRecord,
  type ImportSettings,
} from '../../api/imports';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { InlineError } from '../../components/ui/form-error';
import { ProgressBar } from '../../components/ui/progress-bar';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { CountsList } from './import-counts';
import { PreviewTable } from './preview-table';

const CHOICES: { value: ImportDuplicates; label: string; hint: string }[] = [
  { value: 'skip', label: 'Skip', hint: 'The row is left out and the existing contact stays as it is.' },
  {
    value: 'update',
    label: 'Update',
    hint: 'New phones, e-mails and tags are added to the existing contact and its empty fields filled; a value it already has is never replaced (the row says which differed).',
  },
];

function DuplicatesChoice({ value, onChange }: { value: ImportDuplicates; onChange: (v: ImportDuplicates) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800">When a row has the e-mail or phone of a contact you have</legend>
      <div role="radiogroup" aria-label="Duplicates" className="mt-2 space-y-2">
        {CHOICES.map((c) => (
          <div key={c.value} className="flex items-start gap-2 text-sm">
            <input
              id={`${name}-${c.value}`}
              type="radio"
              name={name}
              value={c.value}
              checked={value === c.value}
              onChange={() => onChange(c.value)}
              className="mt-1 accent-indigo-600"
              aria-describedby={`${name}-${c.value}-hint`}
            />
            <div>
              <label htmlFor={`${name}-${c.value}`} className="cursor-pointer font-medium text-zinc-800">
                {c.label}
              </label>
              <p id={`${name}-${c.value}-hint`} className="text-zinc-600">
                {c.hint}
              </p>
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

type Props = {
  record: ImportRecord;
  settings: ImportSettings;
  onDuplicates: (duplicates: ImportDuplicates) => void;
  onBack: () => void;
};

/** Step 3: the first rows as they will be stored, what duplicates do, a dry run's counts, and Run import. */
export function PreviewStep({ record, settings, onDuplicates, onBack }: Props) {
  const preview = useQuery(previewQueryOptions(record.id, settings));
  const run = useRunImport(record.id);
  /* The dry run shown is the one of these settings: changing them asks for a new one. */
  const [dryRunOf, setDryRunOf] = useState<string | null>(record.dry_run ? JSON.stringify(settings) : null);
  const current = JSON.stringify(settings);
  const dryRunning = record.dry_run && isWorking(record.status);
  const dryDone = record.dry_run && record.status === 'done' && dryRunOf === current;

  const dryRun = () => run.mutate({ ...settings, dry_run: true }, { onSuccess: () => setDryRunOf(current) });

  return (
    <div className="space-y-4">
      <Section title="Duplicates">
        <DuplicatesChoice value={settings.duplicates} onChange={onDuplicates} />
      </Section>
      <Section title={`Preview: the first rows of ${formatCount(record.row_count, 'row', 'rows')}`}>
        {preview.isPending && <Spinner label="Reading the first rows…" />}
        {preview.isError && (
          <ErrorState title="The preview could not be made" message={errorMessage(preview.error)} onRetry={() => void preview.refetch()} />
        )}
        {preview.data && preview.data.length === 0 && <p className="text-sm text-zinc-600">The file has no rows to preview.</p>}
        {preview.data && preview.data.length > 0 && <PreviewTable rows={preview.data} />}
      </Section>
      <Section title="Dry run">
        <p className="mb-3 text-sm text-zinc-600">
          A dry run goes through every row without changing your contacts, and counts what the import would do.
        </p>
        {dryRunning && (
          <ProgressBar
            value={record.rows_done}
            max={record.row_count}
            label={`Dry run: ${record.rows_done.toLocaleString()} of ${formatCount(record.row_count, 'row', 'rows')} checked`}
          />
        )}
        {dryDone && <CountsList counts={record.counts} dryRun label="Dry run counts" />}
        {record.dry_run && record.status === 'failed' && (
          <p role="alert" className="text-sm text-red-700">
            The dry run stopped: {record.error || 'the server could not finish it.'}
          </p>
        )}
        <div className="mt-3">
          <Button onClick={dryRun} busy={(run.isPending && run.variables?.dry_run) || dryRunning}>
            Dry run
          </Button>
        </div>
      </Section>
      <InlineError error={run.error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onBack} disabled={dryRunning}>
          Back to mapping
        </Button>
        <Button
          variant="primary"
          disabled={dryRunning}
          busy={run.isPending && run.variables?.dry_run === false}
          onClick={() => run.mutate({ ...settings, dry_run: false })}
        >
          Run import
        </Button>
      </div>
    </div>
  );
}
