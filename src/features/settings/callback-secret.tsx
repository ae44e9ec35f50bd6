import { useState } from 'react';
import { useSaveDialSettings } from '../../api/dial-settings';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Section } from '../../components/ui/section';
import { useStatus } from '../../components/ui/status-message';

/** The organisation's callback signing secret (the vendor's only): masked until revealed; rotated after a confirmation. */
export function CallbackSecretSection({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const rotate = useSaveDialSettings();
  const { announce } = useStatus();

  const confirm = () =>
    rotate.mutate(
      { callback_secret: 'rotate' },
      {
        onSuccess: () => {
          setConfirming(false);
          announce('Callback secret rotated');
        },
      },
    );

  return (
    <Section title="Callback signing secret">
      <p className="text-sm text-zinc-600">Your integration checks each callback's signature with this secret.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code aria-label="Callback secret" className="min-w-0 rounded bg-zinc-100 px-2 py-1 font-mono text-sm break-all text-zinc-800">
          {shown ? secret : `${secret.slice(0, 6)}${'•'.repeat(16)}`}
        </code>
        <Button size="sm" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide secret' : 'Reveal secret'}
        </Button>
        <Button
          size="sm"
          variant="danger-ghost"
          onClick={() => {
            rotate.reset();
            setConfirming(true);
          }}
        >
          Rotate secret
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Rotate the callback secret?"
        confirmLabel="Rotate secret"
        busy={rotate.isPending}
        error={rotate.error}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        <p>
          A new secret is made at once. Callbacks sent from now on are signed with it, so your integration stops accepting them until it has
          the new one.
        </p>
      </ConfirmDialog>
    </Section>
  );
}
