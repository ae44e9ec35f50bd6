import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export type MenuItem = {
  label: string;
  onSelect: () => void;
  /** Shown, focusable and announced as unavailable; `disabledReason` says why. */
  disabled?: boolean;
  disabledReason?: string;
  tone?: 'danger';
};

type Props = {
  /** The button's accessible name, e.g. "Actions for Prospects". */
  label: string;
  items: MenuItem[];
  /** What the button shows (an icon); defaults to "⋯". */
  children?: ReactNode;
  className?: string;
  align?: 'left' | 'right';
};

/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown opens it on the first item; arrows, Home and End
 * move; Esc closes it and returns focus to the button; Tab or a click outside closes it.
 */
export function MenuButton({ label, items, children, className = '', align = 'right' }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const openAt = (index: number) => {
    setActive(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const last = items.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => (active >= last ? 0 : active + 1),
      ArrowUp: () => (active <= 0 ? last : active - 1),
      Home: () => 0,
      End: () => last,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setActive(move());
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const reasons = [...new Set(items.flatMap((item) => (item.disabled && item.disabledReason ? [item.disabledReason] : [])))];
  const reasonId = (item: MenuItem) =>
    item.disabled && item.disabledReason ? `${id}-why-${reasons.indexOf(item.disabledReason)}` : undefined;

  const choose = (item: MenuItem) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  return (
    <div ref={rootRef} className={`relative ${className}`}>
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            openAt(event.key === 'ArrowUp' ? items.length - 1 : 0);
          }
        }}
        className="flex size-7 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 aria-expanded:bg-zinc-100"
      >
        {children ?? (
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
            <path d="M3 10a1.5 1.5 0 1 1 3 0 1.5 1.5 0 0 1-3 0Zm5.5 0a1.5 1.5 0 1 1 3 0 1.5 1.5 0 0 1-3 0ZM15.5 8.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z" />
          </svg>
        )}
      </button>
      {open && (
        <div
          className={`absolute z-30 mt-1 w-60 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
        >
          <div id={`${id}-menu`} role="menu" aria-label={label} onKeyDown={onMenuKey}>
            {items.map((item, i) => (
              <button
                key={item.label}
                ref={(el) => {
                  itemRefs.current[i] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={i === active ? 0 : -1}
                aria-disabled={item.disabled || undefined}
                aria-describedby={reasonId(item)}
                onClick={() => choose(item)}
                onMouseEnter={() => setActive(i)}
                className={`block w-full rounded-md px-3 py-1.5 text-left text-sm focus:outline-none ${
                  item.disabled
                    ? 'cursor-not-allowed text-zinc-400'
                    : item.tone === 'danger'
                      ? 'text-red-700 focus:bg-red-50'
                      : 'text-zinc-800 focus:bg-zinc-100'
                }`}
              >
                {item.label}
              </button>
            ))}
          </div>
          {reasons.map((reason, i) => (
            <p key={reason} id={`${id}-why-${i}`} className="border-t border-zinc-100 px-3 pt-1.5 pb-1 text-xs text-zinc-500">
              {reason}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}
