import type { ReactNode } from 'react';
import { useStatus } from './status-message';
import { ConfirmDialog } from './confirm-dialog';

/** A delete mutation as TanStack Query gives it: the id it takes, how it is going. */
type Remove<Id> = {
  mutate: (id: Id, handlers: { onSuccess: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
};

type Props<T, Id> = {
  /** The item to delete; null keeps the dialog closed. */
  item: T | null;
  remove: Remove<Id>;
  idOf: (item: T) => Id;
  /** "Delete the tag Hot?" */
  title: (item: T) => string;
  confirmLabel: string;
  /** What the status region says once it is gone. */
  deleted: (item: T) => string;
  /** What deleting it does, with the numbers. */
  children: ReactNode;
  onClose: () => void;
};

/** The catalogs' and libraries' delete confirmation: asks, deletes, says it was deleted, and closes. */
export function DeleteDialog<T, Id>({ item, remove, idOf, title, confirmLabel, deleted, children, onClose }: Props<T, Id>) {
  const { announce } = useStatus();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={item !== null}
      title={item ? title(item) : ''}
      confirmLabel={confirmLabel}
      busy={remove.isPending}
      error={remove.error}
      onCancel={close}
      onConfirm={() =>
        item &&
        remove.mutate(idOf(item), {
          onSuccess: () => {
            announce(deleted(item));
            close();
          },
        })
      }
    >
      {children}
    </ConfirmDialog>
  );
}
