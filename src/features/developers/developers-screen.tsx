import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { endpointsByTag, openapiQueryOptions } from '../../api/openapi';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { PageHeader, Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { errorMessage } from '../../lib/api-client';
import { OperationPanel } from './operation-panel';

/**
 * The API reference for developers, read from the server's own OpenAPI document, grouped by resource. The token for
 * "Try it" lives in this component's state only: never stored, gone when the page is left or reloaded.
 */
export function DevelopersScreen() {
  const doc = useQuery(openapiQueryOptions());
  const [token, setToken] = useState('');
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => (doc.data ? endpointsByTag(doc.data) : []), [doc.data]);
  const words = filter.trim().toLowerCase();
  const shown = groups
    .map(
      ([tag, list]) =>
        [tag, list.filter((e) => `${e.method} ${e.path} ${e.operation.summary} ${tag}`.toLowerCase().includes(words))] as const,
    )
    .filter(([, list]) => list.length > 0);

  useEffect(() => {
    document.title = 'API reference · Ringbook';
  }, []);

  return (
    <div className="mx-auto w-full max-w-5xl space-y-4 px-4 py-5 sm:px-6">
      <PageHeader
        title="API reference"
        description={
          <>
            Every operation of the Ringbook REST API, from its OpenAPI 3.1 document (
            <a href="/rest/1/openapi.json" className="text-indigo-700 underline">
              /rest/1/openapi.json
            </a>
            ). Integrations send <span className="font-mono">Authorization: Bearer &lt;token&gt;</span>; answers wrap the resource in the
            envelope shown; a refusal lists its debug codes. Marked “extension”: ours, beyond the compatible contract.
          </>
        }
      />
      <div className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:grid-cols-2">
        <TextField
          label="Personal access token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          hint={
            <>
              Used by Try it only, sent as a bearer token; kept in this page while it is open, never stored. Make one under{' '}
              <Link to="/settings#tokens" className="text-indigo-700 underline">
                Settings, Personal access tokens
              </Link>{' '}
              (it is shown once).
            </>
          }
        />
        <TextField
          label="Filter operations"
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          hint="Method, path or words of the summary."
        />
      </div>
      {doc.isPending && (
        <div className="flex justify-center py-12" aria-busy="true">
          <Spinner label="Loading the API reference…" />
        </div>
      )}
      {doc.isError && (
        <ErrorState
          title="The API reference could not be loaded"
          message={errorMessage(doc.error)}
          onRetry={() => void doc.refetch()}
          retrying={doc.isFetching}
        />
      )}
      {doc.data && shown.length === 0 && <EmptyState title="No operation matches">Nothing matches “{filter}”.</EmptyState>}
      {shown.map(([tag, list]) => (
        <Section key={tag} title={tag} className="overflow-hidden [&>div]:p-0">
          <ul>
            {list.map((endpoint) => (
              <OperationPanel key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} token={token} />
            ))}
          </ul>
        </Section>
      ))}
    </div>
  );
}
