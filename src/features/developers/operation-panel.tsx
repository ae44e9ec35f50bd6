import { useId, useState } from 'react';
import type { ApiOperation, Endpoint, Parameter } from '../../api/openapi';
import { tryItUnavailable, typeLabel } from './reference-model';
import { SchemaView } from './schema-view';
import { TryIt } from './try-it';

const METHOD_TONES: Record<Endpoint['method'], string> = {
  get: 'bg-sky-100 text-sky-800',
  post: 'bg-emerald-100 text-emerald-800',
  put: 'bg-amber-100 text-amber-800',
  delete: 'bg-red-100 text-red-800',
};

/** A parameter's description without the "Extension:" its badge already says. */
const said = (p: Parameter) => (p.description ?? p.schema.description ?? '').replace(/^Extension[.:]\s*/, '');

const isExtension = (op: ApiOperation) => op['x-ringbook-extension'] === true;

function Parameters({ operation }: { operation: ApiOperation }) {
  if (!operation.parameters.length) return null;
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Parameters</h3>
      <ul className="mt-1 space-y-1 text-xs">
        {operation.parameters.map((p) => (
          <li key={`${p.in}-${p.name}`}>
            <span className="font-mono font-semibold text-zinc-900">{p.name}</span> <span className="text-zinc-500">in {p.in}</span>{' '}
            <span className="font-mono text-indigo-700">{typeLabel(p.schema)}</span>
            {p.required && <span className="ml-1 rounded bg-amber-50 px-1 text-amber-800">required</span>}
            {p['x-ringbook-extension'] && <span className="ml-1 rounded bg-violet-50 px-1 text-violet-800">extension</span>}
            {said(p) && <span className="text-zinc-600"> — {said(p)}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Bodies({ operation }: { operation: ApiOperation }) {
  const request = operation.requestBody;
  const requestSchema = request?.content['application/json']?.schema;
  const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status));
  const responseSchema = success?.[1].content?.['application/json']?.schema;
  return (
    <>
      {request && (
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Request body</h3>
          <p className="mt-1 text-xs text-zinc-600">
            {Object.keys(request.content).join(' or ')}. {request.description}
          </p>
          {requestSchema && <SchemaView schema={requestSchema} />}
        </div>
      )}
      {success && (
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Response {success[0]}</h3>
          <p className="mt-1 text-xs text-zinc-600">{success[1].description}</p>
          {responseSchema && <SchemaView schema={responseSchema} />}
        </div>
      )}
    </>
  );
}

/** One operation: its line (method, path, summary) opens its parameters, bodies and "Try it". */
export function OperationPanel({ endpoint, token }: { endpoint: Endpoint; token: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const { method, path, operation } = endpoint;
  const unavailable = tryItUnavailable(endpoint);
  return (
    <li className="border-b border-zinc-100 last:border-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-left hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
      >
        <span className={`w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ${METHOD_TONES[method]}`}>
          {method.toUpperCase()}
        </span>{' '}
        <span className="font-mono text-sm text-zinc-900">{path}</span> <span className="text-sm text-zinc-600">{operation.summary}</span>
        {isExtension(operation) && <span className="rounded bg-violet-50 px-1.5 text-xs text-violet-800">extension</span>}
        {operation.security?.length === 0 && <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-700">no token needed</span>}
      </button>
      {open && (
        <div id={panelId} className="space-y-4 px-4 pt-1 pb-4">
          {operation.description && <p className="text-sm whitespace-pre-line text-zinc-700">{operation.description}</p>}
          <Parameters operation={operation} />
          <Bodies operation={operation} />
          <div>
            <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Try it</h3>
            {unavailable ? <p className="mt-1 text-xs text-zinc-600">{unavailable}</p> : <TryIt endpoint={endpoint} token={token} />}
          </div>
        </div>
      )}
    </li>
  );
}
