import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type AccessTokenRecord, createTokenBody } from '../../../server/contracts/oauth';
import { tokensQueryOptions, useCreateToken, useRevokeToken } from '../../api/tokens';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ErrorState } from '../../components/ui/error-state';
import { TextField } from '../../components/ui/field';
import { applyServerErrors, FormAlert, labelled } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { SecretOnceDialog } from '../integrations/secret-once';

/**
 * Settings: personal access tokens for one's scripts (named, shown once, last used, revoke). The vendor's list holds
 * every member's, with whose each is; it revokes any of them.
 */
export function TokensSection({ vendor }: { vendor: boolean }) {
  const list = useQuery(tokensQueryOptions(vendor));
  const [made, setMade] = useState<AccessTokenRecord | null>(null);
  const [revoking, setRevoking] = useState<AccessTokenRecord | null>(null);
  return (
    <Section id="tokens" title="Personal access tokens">
      <p className="mb-3 text-sm text-zinc-600">
        A token lets a script or tool use the Ringbook API as you: send it as <code className="font-mono">Authorization: Bearer …</code>.
        {vendor && ' You see and revoke every member’s tokens.'}
      </p>
      <NewTokenForm onCreated={setMade} />
      {list.isPending && <Spinner label="Loading tokens…" />}
      {list.isError && (
        <ErrorState title="Tokens could not be loaded" message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && list.data.length === 0 && <p className="mt-3 text-sm text-zinc-600">No personal access tokens yet.</p>}
      {list.isSuccess && list.data.length > 0 && (
        <table className="mt-3 w-full text-left text-sm">
          <caption className="sr-only">Personal access tokens</caption>
          <thead className="text-xs text-zinc-500">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Name
              </th>
              {vendor && (
                <th scope="col" className="py-1 font-medium">
                  Member
                </th>
              )}
              <th scope="col" className="py-1 font-medium">
                Created
              </th>
              <th scope="col" className="py-1 font-medium">
                Last used
              </th>
              <th scope="col" className="py-1">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {list.data.map((t) => (
              <tr key={t.token_id}>
                <th scope="row" className="py-1.5 font-medium text-zinc-900">
                  {t.name}
                </th>
                {vendor && <td className="py-1.5 text-zinc-700">{t.member_name}</td>}
                <td className="py-1.5 text-zinc-700">{formatDateTime(t.created_at)}</td>
                <td className="py-1.5 text-zinc-700">{formatDateTime(t.last_used_at, 'Never')}</td>
                <td className="py-1 text-right">
                  <Button size="sm" variant="danger-ghost" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {made?.token && (
        <SecretOnceDialog title={`Token ${made.name}`} label="Personal access token" value={made.token} onClose={() => setMade(null)} />
      )}
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </Section>
  );
}

function NewTokenForm({ onCreated }: { onCreated: (made: AccessTokenRecord) => void }) {
  const create = useCreateToken();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, reset, setError, formState } = useForm<
    z.input<typeof createTokenBody>,
    unknown,
    z.output<typeof createTokenBody>
  >({
    resolver: zodResolver(createTokenBody),
    defaultValues: { name: '' },
  });
  const submit = handleSubmit(async ({ name }) => {
    setProblems([]);
    try {
      onCreated(await create.mutateAsync(name));
      reset({ name: '' });
    } catch (error) {
      setProblems(applyServerErrors(error, setError, { name: { name: 'name', label: 'Token name' } }));
    }
  });
  const error = formState.errors.name?.message;
  return (
    <form onSubmit={submit} noValidate aria-label="Create a personal access token" className="flex flex-wrap items-start gap-2">
      <TextField
        label="Token name"
        autoComplete="off"
        maxLength={100}
        className="w-64"
        error={error ? labelled('Token name', error, 'name') : undefined}
        {...register('name')}
      />
      <Button type="submit" variant="primary" busy={create.isPending} className="mt-6">
        Create token
      </Button>
      <div className="w-full empty:hidden">
        {problems.length > 0 && <FormAlert title="The token was not created." messages={problems} />}
      </div>
    </form>
  );
}

function RevokeTokenDialog({ token, onClose }: { token: AccessTokenRecord | null; onClose: () => void }) {
  const revoke = useRevokeToken();
  const { announce } = useStatus();
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={token !== null}
      title={`Revoke the token ${token?.name ?? ''}?`}
      confirmLabel="Revoke token"
      busy={revoke.isPending}
      error={revoke.error}
      onCancel={close}
      onConfirm={() => token && revoke.mutate(token.token_id, { onSuccess: () => (close(), announce(`Token “${token.name}” revoked`)) })}
    >
      <p>Whatever uses it is refused from its next request. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
