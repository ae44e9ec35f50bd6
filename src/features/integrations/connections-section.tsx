import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConnectionRecord } from '../../../server/contracts/oauth';
import { connectionsQueryOptions, useDisconnect } from '../../api/integrations';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

/** Settings: the integrations the member allowed, each with Disconnect (its tokens stop working at once). */
export function ConnectionsSection() {
  const list = useQuery(connectionsQueryOptions());
  const disconnect = useDisconnect();
  const { announce } = useStatus();
  const [confirming, setConfirming] = useState<ConnectionRecord | null>(null);
  const close = () => {
    disconnect.reset();
    setConfirming(null);
  };

  return (
    <Section title="Connected integrations">
      {list.isPending && <Spinner label="Loading connected integrations…" />}
      {list.isError && (
        <ErrorState
          title="Connected integrations could not be loaded"
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.isSuccess && list.data.length === 0 && <p className="text-sm text-zinc-600">No integration is connected to your account.</p>}
      {list.isSuccess && list.data.length > 0 && (
        <ul className="divide-y divide-zinc-100" aria-label="Connected integrations">
          {list.data.map((c) => (
            <li key={c.integration_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <p className="font-medium text-zinc-900">{c.name}</p>
                <p className="text-xs text-zinc-500">
                  Connected {formatDateTime(c.connected_at)} · last used {formatDateTime(c.last_used_at, 'never')}
                </p>
              </div>
              <Button size="sm" variant="danger-ghost" aria-label={`Disconnect ${c.name}`} onClick={() => setConfirming(c)}>
                Disconnect
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Disconnect ${confirming?.name ?? ''}?`}
        confirmLabel="Disconnect"
        busy={disconnect.isPending}
        error={disconnect.error}
        onCancel={close}
        onConfirm={() =>
          confirming &&
          disconnect.mutate(confirming.integration_id, { onSuccess: () => (close(), announce(`${confirming.name} disconnected`)) })
        }
      >
        <p>It can no longer act as you: its tokens stop working at once. You can allow it again from the integration.</p>
      </ConfirmDialog>
    </Section>
  );
}
