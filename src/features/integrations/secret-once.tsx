import { type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/** A secret the server keeps only hashed: shown here once, with Copy; closing the dialog is the last chance to see it. */
export function SecretOnceDialog({ title, label, value, children, onClose }: SecretOnceProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // Without clipboard access (an insecure address, a refusal) the text stays selectable.
      setCopied('failed');
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      size="md"
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="space-y-3 text-sm text-zinc-700">
        {children}
        <p className="font-medium text-amber-800">Copy it now: it is not shown again.</p>
        <div className="flex flex-wrap items-center gap-2">
          <code aria-label={label} className="min-w-0 rounded bg-zinc-100 px-2 py-1 font-mono text-sm break-all text-zinc-900 select-all">
            {value}
          </code>
          <Button size="sm" onClick={() => void copy()}>
            {copied === 'yes' ? 'Copied' : 'Copy'}
          </Button>
        </div>
        <p role="status" className="text-xs text-zinc-500">
          {copied === 'yes'
            ? `${label} copied to the clipboard.`
            : copied === 'failed'
              ? 'Copying was refused: select the text and copy it.'
              : ''}
        </p>
      </div>
    </Dialog>
  );
}

type SecretOnceProps = { title: string; label: string; value: string; children?: ReactNode; onClose: () => void };
