import { useEffect, useRef } from 'react';

export type Shortcut = { key: string; enabled: boolean; run: () => void };

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Keys typed into a text field, a select or an editable region are the user's text, not commands. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TEXT.has(target.type);
}

/**
 * Single-key shortcuts for the dialer (C, H, digits...): ignored with a modifier held, while typing, on key repeat,
 * and while a modal dialog is open; a shortcut whose action is not allowed now does nothing.
 */
export function useShortcuts(shortcuts: Shortcut[]) {
  const current = useRef(shortcuts);
  current.current = shortcuts;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
      const key = event.key.toLowerCase();
      const shortcut = current.current.find((s) => s.key.toLowerCase() === key);
      if (!shortcut?.enabled) return;
      event.preventDefault();
      shortcut.run();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
