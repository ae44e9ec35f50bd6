import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  importQueryOptions,
  isWorking,
  refreshAfterImport,
  type ImportDetail,
  type ImportDuplicates,
  type ImportRecord,
} from '../../api/imports';
import { ErrorState } from '../../components/ui/error-state';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { ApiError, errorMessage } from '../../lib/api-client';
import { DoneStep } from './done-step';
import { countsSentence } from './import-counts';
import { ImportLayout } from './import-layout';
import type { Step } from './import-steps';
import { MappingStep } from './mapping-step';
import { initialValues, toMapping } from './mapping-schema';
import { PreviewStep } from './preview-step';
import { RunStep } from './run-step';

/** Where an import is, from its status: a dry run keeps it in the preview; a real run moves it on. */
function stepOf(record: ImportRecord): 'setup' | 'run' | 'done' | 'failed' {
  if (record.status === 'undoing' || record.status === 'undone') return 'done';
  if (record.dry_run || record.status === 'uploaded') return 'setup';
  if (record.status === 'failed') return 'failed';
  return isWorking(record.status) ? 'run' : 'done';
}

/** Steps 2 and 3 in the browser: the mapping and the duplicates choice stay here until the import runs. */
function Setup({ record, onStep }: { record: ImportDetail; onStep: (step: Step) => void }) {
  const navigate = useNavigate();
  const [values, setValues] = useState(() => initialValues(record.columns, record.mapping));
  const [duplicates, setDuplicates] = useState<ImportDuplicates>(record.duplicates ?? 'skip');
  const [stage, setStage] = useState<'map' | 'preview'>(record.mapping ? 'preview' : 'map');
  useEffect(() => onStep(stage === 'map' ? 'Map columns' : 'Preview'), [stage, onStep]);

  if (stage === 'map') {
    return (
      <MappingStep
        columns={record.columns}
        initial={values}
        onCancel={() => void navigate('/contacts/import')}
        onContinue={(next) => {
          setValues(next);
          setStage('preview');
        }}
      />
    );
  }
  return (
    <PreviewStep
      record={record}
      settings={{ mapping: toMapping(values, record.columns), duplicates }}
      onDuplicates={setDuplicates}
      onBack={() => setStage('map')}
    />
  );
}

/** Once the import (or its undo) has changed contacts, the grid and the counts are read again, and it is said. */
function useFinishedEffects(record: ImportRecord | undefined) {
  const queryClient = useQueryClient();
  const { announce } = useStatus();
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (!record) return;
    const was = last.current;
    last.current = record.status;
    if (!was || was === record.status || !isWorking(was as ImportRecord['status'])) return;
    if (record.status === 'done' && record.dry_run) announce(`Dry run finished: ${countsSentence(record.counts, true)}.`, 'info');
    if (record.status === 'done' && !record.dry_run) announce(`Import finished: ${countsSentence(record.counts)}.`);
    if (record.status === 'undone') announce('Import undone');
    if (record.status !== 'done' || !record.dry_run) void refreshAfterImport(queryClient);
  }, [record, announce, queryClient]);
}

/** One import (/contacts/imports/:id): the wizard from mapping on, the job's progress, and its result. */
export function ImportScreen({ id }: { id: string }) {
  const query = useQuery(importQueryOptions(id));
  const record = query.data;
  const [setupStep, setSetupStep] = useState<Step>('Map columns');
  useFinishedEffects(record);
  const step = record ? stepOf(record) : null;
  const shown: Step = step === 'setup' ? setupStep : step === 'run' ? 'Run' : 'Done';
  const content = useRef<HTMLDivElement>(null);
  const firstStep = useRef<Step | null>(null);
  /* A new step takes the focus (and is read out), as a new page would; the first one does not steal it. */
  useEffect(() => {
    if (!step) return;
    if (firstStep.current === null) firstStep.current = shown;
    else content.current?.focus();
  }, [step, shown]);

  if (query.isPending) {
    return (
      <ImportLayout title="Import contacts" step={null}>
        <Spinner label="Loading the import…" />
      </ImportLayout>
    );
  }
  if (!record) {
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <ImportLayout title="Import contacts" step={null}>
        <ErrorState
          title={gone ? 'This import does not exist' : 'The import could not be loaded'}
          message={gone ? 'It may have been someone else’s, or the link is wrong.' : errorMessage(query.error)}
          onRetry={gone ? undefined : () => void query.refetch()}
        />
      </ImportLayout>
    );
  }
  return (
    <ImportLayout title={`Import ${record.filename}`} step={shown}>
      <div ref={content} tabIndex={-1} role="group" aria-label={`Step: ${shown}`} className="space-y-4 focus:outline-none">
        {step === 'setup' && <Setup record={record} onStep={setSetupStep} />}
        {step === 'run' && <RunStep record={record} />}
        {step === 'done' && <DoneStep record={record} />}
        {step === 'failed' && (
          <ErrorState
            title="The import stopped"
            message={`${record.error || 'The server could not finish it.'} ${countsSentence(record.counts)} before it stopped.`}
          />
        )}
      </div>
    </ImportLayout>
  );
}
