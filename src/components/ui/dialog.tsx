import { useEffect, useId, useRef, type ReactNode } from 'react';

export type DialogProps = {
  open: boolean;
  /** Called on Esc, the close button, or (when allowed) a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** 'role=alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
  closeOnBackdrop?: boolean;
  /** Set while an action runs: Esc and the backdrop then do nothing. */
  preventClose?: boolean;
  /** False for a dialog that must be answered through its own actions: no close button, Esc does nothing. */
  dismissible?: boolean;
};

const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-3xl' } as const;

/**
 * A modal on the native <dialog>: showModal() makes the rest of the page inert (focus stays inside),
 * Esc closes, and focus returns to the element that opened it.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  role,
  closeOnBackdrop = false,
  preventClose = false,
  dismissible = true,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const preventRef = useRef(preventClose || !dismissible);
  preventRef.current = preventClose || !dismissible;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    /* Focus what the content asks for, else its first control, else the first footer action (Cancel). */
    const focusable =
      'input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';
    const target =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>(`[data-dialog-body] :is(${focusable})`) ??
      dialog.querySelector<HTMLElement>(`[data-dialog-footer] :is(${focusable})`);
    target?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!preventRef.current) onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (opener && opener.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      className={`m-auto w-[calc(100%-2rem)] ${widths[size]} max-h-[calc(100dvh-2rem)] overflow-hidden rounded-xl bg-white p-0 text-zinc-900 shadow-2xl ring-1 ring-zinc-900/10 backdrop:bg-zinc-900/40 backdrop:backdrop-blur-[1px]`}
      onMouseDown={(event) => {
        if (closeOnBackdrop && !preventRef.current && event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
        <header className="flex items-start justify-between gap-4 border-b border-zinc-200 px-5 py-4">
          <div className="min-w-0">
            <h2 id={titleId} className="truncate text-base font-semibold text-zinc-900">
              {title}
            </h2>
            {description && (
              <div id={descriptionId} className="mt-1 text-sm text-zinc-600">
                {description}
              </div>
            )}
          </div>
          {dismissible && (
            <button
              type="button"
              onClick={() => !preventClose && onClose()}
              className="-m-1 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
              aria-label="Close"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          )}
        </header>
        <div data-dialog-body className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
          {children}
        </div>
        {footer && (
          <footer
            data-dialog-footer
            className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 bg-zinc-50 px-5 py-3"
          >
            {footer}
          </footer>
        )}
      </div>
    </dialog>
  );
}
