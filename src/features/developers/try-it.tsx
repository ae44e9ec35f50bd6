import { useId, useState, type FormEvent } from 'react';
import { type Endpoint, useTryIt } from '../../api/openapi';
import { urlOf } from './reference-model';
import { Button } from '../../components/ui/button';
import { TextareaField, TextField } from '../../components/ui/text-field';
import { errorMessage } from '../../lib/api-client';

/** Sends the operation with the pasted token and shows the status and body the server answered. */
export function TryIt({ endpoint, token }: { endpoint: Endpoint; token: string }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState('{\n}');
  const [problem, setProblem] = useState<string>();
  const resultId = useId();
  const send = useTryIt();
  const hasBody = Boolean(endpoint.operation.requestBody);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = urlOf(endpoint, values);
    if (!token.trim()) return setProblem('Paste a personal access token above first.');
    if ('missing' in target) return setProblem(`Fill in ${target.missing}.`);
    setProblem(undefined);
    send.mutate({ method: endpoint.method, url: target.url, token, body: hasBody ? body : undefined });
  };

  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-md bg-zinc-50 p-3"
      aria-label={`Try ${endpoint.method.toUpperCase()} ${endpoint.path}`}
    >
      {endpoint.operation.parameters.length > 0 && (
        <div className="grid gap-2 sm:grid-cols-2">
          {endpoint.operation.parameters.map((p) => (
            <TextField
              key={`${p.in}-${p.name}`}
              label={`${p.name} (${p.in})`}
              required={p.required}
              value={values[p.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [p.name]: e.target.value }))}
            />
          ))}
        </div>
      )}
      {hasBody && (
        <TextareaField label="Request body (JSON)" rows={5} className="font-mono" value={body} onChange={(e) => setBody(e.target.value)} />
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" size="sm" busy={send.isPending}>
          Send request
        </Button>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
      </div>
      <div id={resultId} aria-live="polite">
        {send.isPending && <p className="text-sm text-zinc-600">Sending…</p>}
        {send.isError && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {errorMessage(send.error, 'The request could not be sent.')}
          </p>
        )}
        {send.data && !send.isPending && (
          <section aria-label="Response" className="space-y-1">
            <p className="text-sm font-semibold text-zinc-900">
              Status <span className="font-mono">{send.data.status}</span> {send.data.statusText}
            </p>
            <pre
              className="max-h-96 overflow-auto rounded-md bg-zinc-900 p-3 text-xs text-zinc-100"
              tabIndex={0}
              aria-label="Response body"
            >
              {send.data.body || '(no body)'}
            </pre>
          </section>
        )}
      </div>
    </form>
  );
}
