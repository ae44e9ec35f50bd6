import { useId, useRef, useState, type DragEvent } from 'react';
import { useNavigate } from 'react-router';
import { useUploadImport } from '../../api/imports';
import { Button } from '../../components/ui/button';
import { fileInputClass } from '../../components/ui/field';
import { InlineError } from '../../components/ui/form-error';
import { ProgressBar } from '../../components/ui/progress-bar';
import { useStatus } from '../../components/ui/status-message';
import { formatCount } from '../../lib/format';

const sizeText = (bytes: number) =>
  bytes < 1024
    ? formatCount(bytes, 'byte', 'bytes')
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const isCancel = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Step 1: a CSV file chosen or dropped is sent at once, with its progress; the server's refusal of the whole file
 * (empty, a header and no rows, not CSV, too large) is shown here. Once stored, the import's own page maps it.
 */
export function UploadStep() {
  const upload = useUploadImport();
  const navigate = useNavigate();
  const { announce } = useStatus();
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const send = (chosen: File) => {
    setFile(chosen);
    setProgress({ sent: 0, total: chosen.size });
    abort.current = new AbortController();
    upload.mutate(
      { file: chosen, signal: abort.current.signal, onProgress: (sent, total) => setProgress({ sent, total }) },
      {
        onSuccess: (uploaded) => {
          announce(`${uploaded.filename} uploaded: ${formatCount(uploaded.row_count, 'row', 'rows')} to map.`);
          void navigate(`/contacts/imports/${encodeURIComponent(uploaded.id)}`);
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !upload.isPending) send(dropped);
  };

  const percent = progress ? Math.round((progress.sent / Math.max(1, progress.total)) * 100) : 0;
  return (
    <div className="space-y-4">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-10 text-center ${dragging ? 'border-indigo-500 bg-indigo-50' : 'border-zinc-300 bg-white'}`}
      >
        <p className="text-sm font-medium text-zinc-800">Drop a CSV file here, or choose one.</p>
        <label htmlFor={inputId} className="sr-only">
          CSV file
        </label>
        <input
          id={inputId}
          type="file"
          accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
          aria-describedby={hintId}
          disabled={upload.isPending}
          className={fileInputClass}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (chosen) send(chosen);
          }}
        />
        <p id={hintId} className="max-w-md text-xs text-zinc-500">
          The first line names the columns. Commas, semicolons or tabs between fields; UTF-8 or Windows (Western European) text. Nothing is
          added to your contacts until you run the import.
        </p>
      </div>
      {progress && file && (
        <div className="flex items-end gap-3">
          <div className="flex-1">
            <ProgressBar
              value={progress.sent}
              max={progress.total}
              label={`Uploading ${file.name} (${sizeText(file.size)})… ${percent}%`}
            />
          </div>
          <Button size="sm" onClick={() => abort.current?.abort()}>
            Cancel upload
          </Button>
        </div>
      )}
      {upload.isError && !isCancel(upload.error) && (
        <div className="space-y-1">
          <p className="text-sm font-medium text-zinc-800">{file ? `${file.name} was not imported.` : 'The file was not imported.'}</p>
          <InlineError error={upload.error} />
        </div>
      )}
      {upload.isError && isCancel(upload.error) && <p className="text-sm text-zinc-600">Upload cancelled: nothing was stored.</p>}
    </div>
  );
}
