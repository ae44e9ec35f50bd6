import { useId, type FormEventHandler, type ReactNode } from 'react';
import { Button } from './button';
import { Dialog, type DialogProps } from './dialog';

type Props = {
  title: string;
  description?: ReactNode;
  size?: DialogProps['size'];
  /** The primary action's label ("Create folder"); Cancel closes. */
  submitLabel: string;
  /** While the form is being sent: the actions are busy and the dialog cannot be closed. */
  busy: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Spacing of the form's fields. */
  className?: string;
  children: ReactNode;
};

/** A dialog holding one form, with Cancel and the form's submit button in its footer. */
export function FormDialog({
  title,
  description,
  size = 'sm',
  submitLabel,
  busy,
  onClose,
  onSubmit,
  className = 'space-y-4',
  children,
}: Props) {
  const formId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={description}
      size={size}
      preventClose={busy}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className={className}>
        {children}
      </form>
    </Dialog>
  );
}
