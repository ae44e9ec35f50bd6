import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { InlineError } from './form-error';

type Props = {
  open: boolean;
  title: string;
  /** What will happen, with the numbers. */
  children: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A confirmation (alertdialog): Cancel is focused first, Esc cancels, the action says what it does. */
export function ConfirmDialog({ open, title, children, confirmLabel, tone = 'danger', busy = false, error, onConfirm, onCancel }: Props) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      role="alertdialog"
      size="sm"
      title={title}
      preventClose={busy}
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-zinc-700">
        {children}
        <InlineError error={error} />
      </div>
    </Dialog>
  );
}
