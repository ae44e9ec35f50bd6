import { ImportLayout } from './import-layout';
import { ImportsHistory } from './imports-history';
import { UploadStep } from './upload-step';

/** /contacts/import: step 1 (upload a file), and the past imports below it. */
export function ImportStartScreen() {
  return (
    <ImportLayout title="Import contacts" step="Upload">
      <UploadStep />
      <ImportsHistory />
    </ImportLayout>
  );
}
