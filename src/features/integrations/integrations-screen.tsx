import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { IntegrationRecord } from '../../../server/contracts/oauth';
import { integrationsQueryOptions, useDeleteIntegration, useRotateIntegrationSecret } from '../../api/integrations';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorState } from '../../components/ui/error-state';
import { PageHeader } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { IntegrationFormDialog } from './integration-form-dialog';
import { SecretOnceDialog } from './secret-once';

type Editing = { integration: IntegrationRecord | null } | null;
type Confirming = { kind: 'rotate' | 'delete'; integration: IntegrationRecord } | null;

/** /admin/integrations: the vendor registers the integrations (OAuth clients) its members may connect. */
export function IntegrationsScreen() {
  const list = useQuery(integrationsQueryOptions());
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [secret, setSecret] = useState<IntegrationRecord | null>(null);

  useEffect(() => {
    document.title = 'Integrations · Ringbook';
  }, []);

  return (
    <div className="mx-auto w-full max-w-4xl space-y-5 px-4 py-5 sm:px-6">
      <PageHeader
        title="Integrations"
        description="Apps your members connect with OAuth 2.0: each asks a member to allow it, then acts as that member through the API."
        actions={
          <Button variant="primary" onClick={() => setEditing({ integration: null })}>
            Register integration
          </Button>
        }
      />
      <section
        aria-label="Integrations"
        aria-busy={list.isFetching}
        className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-sm"
      >
        {list.isPending && (
          <div className="flex justify-center py-12">
            <Spinner label="Loading integrations…" />
          </div>
        )}
        {list.isError && (
          <ErrorState title="Integrations could not be loaded" message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
        )}
        {list.isSuccess && list.data.length === 0 && (
          <EmptyState title="No integrations yet">Register one to get a client ID and secret for its makers.</EmptyState>
        )}
        {list.isSuccess && list.data.length > 0 && (
          <ul className="divide-y divide-zinc-100">
            {list.data.map((integration) => (
              <IntegrationRow
                key={integration.integration_id}
                integration={integration}
                onEdit={() => setEditing({ integration })}
                onRotate={() => setConfirming({ kind: 'rotate', integration })}
                onDelete={() => setConfirming({ kind: 'delete', integration })}
              />
            ))}
          </ul>
        )}
      </section>
      {editing && (
        <IntegrationFormDialog
          integration={editing.integration}
          onClose={() => setEditing(null)}
          onCreated={(made) => {
            setEditing(null);
            setSecret(made);
          }}
        />
      )}
      <ConfirmIntegrationChange confirming={confirming} onClose={() => setConfirming(null)} onRotated={setSecret} />
      {secret?.client_secret && (
        <SecretOnceDialog
          title={`Client secret of ${secret.name}`}
          label="Client secret"
          value={secret.client_secret}
          onClose={() => setSecret(null)}
        >
          <p>
            Give the integration’s makers its client ID <code className="font-mono text-zinc-900">{secret.client_id}</code> and this secret.
          </p>
        </SecretOnceDialog>
      )}
    </div>
  );
}

function IntegrationRow({ integration, onEdit, onRotate, onDelete }: RowProps) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
      <div className="min-w-0 space-y-1 text-sm">
        <h2 className="font-medium text-zinc-900">{integration.name}</h2>
        <p className="text-zinc-600">
          Client ID <code className="font-mono text-zinc-900">{integration.client_id}</code>
        </p>
        <ul aria-label={`Redirect URIs of ${integration.name}`} className="text-xs break-all text-zinc-500">
          {integration.redirect_uris.map((uri) => (
            <li key={uri}>{uri}</li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" variant="ghost" aria-label={`Edit ${integration.name}`} onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" variant="ghost" aria-label={`Rotate the secret of ${integration.name}`} onClick={onRotate}>
          Rotate secret
        </Button>
        <Button size="sm" variant="danger-ghost" aria-label={`Delete ${integration.name}`} onClick={onDelete}>
          Delete
        </Button>
      </div>
    </li>
  );
}

type RowProps = { integration: IntegrationRecord; onEdit: () => void; onRotate: () => void; onDelete: () => void };

function ConfirmIntegrationChange({ confirming, onClose, onRotated }: ConfirmProps) {
  const rotate = useRotateIntegrationSecret();
  const remove = useDeleteIntegration();
  const { announce } = useStatus();
  const mutation = confirming?.kind === 'rotate' ? rotate : remove;
  const close = () => {
    rotate.reset();
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!confirming) return;
    const { integration } = confirming;
    if (confirming.kind === 'rotate') {
      rotate.mutate(integration.integration_id, { onSuccess: (made) => (close(), onRotated(made)) });
    } else {
      remove.mutate(integration.integration_id, { onSuccess: () => (close(), announce(`Integration “${integration.name}” deleted`)) });
    }
  };
  const name = confirming?.integration.name ?? '';
  return (
    <ConfirmDialog
      open={confirming !== null}
      title={confirming?.kind === 'rotate' ? `Rotate the secret of ${name}?` : `Delete ${name}?`}
      confirmLabel={confirming?.kind === 'rotate' ? 'Rotate secret' : 'Delete integration'}
      busy={mutation.isPending}
      error={mutation.error}
      onConfirm={confirm}
      onCancel={close}
    >
      <p>
        {confirming?.kind === 'rotate'
          ? 'A new secret is made at once and the old one stops working: the integration cannot get tokens until it has the new one.'
          : 'Every member’s connection to it ends at once, and its tokens stop working. This cannot be undone.'}
      </p>
    </ConfirmDialog>
  );
}

type ConfirmProps = { confirming: Confirming; onClose: () => void; onRotated: (made: IntegrationRecord) => void };
