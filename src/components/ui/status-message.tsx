import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/*
 * One polite live region for the whole app ("Contact saved", "3 contacts moved to trash"). The region
 * is always in the DOM so screen readers pick up changes; a plain message fades after a few seconds, one that
 * offers an action (Undo) stays until it is used, dismissed or replaced, so nobody has to race a timer.
 */

type Tone = 'success' | 'info';
export type StatusAction = { label: string; onAction: () => void };
type Message = { id: number; text: string; tone: Tone; action?: StatusAction | undefined };
type StatusApi = {
  announce: (text: string, tone?: Tone, action?: StatusAction) => void;
  /** Drops whatever is shown (e.g. when the signed-in member changes: no message outlives its session). */
  clear: () => void;
};

const StatusContext = createContext<StatusApi | null>(null);

export function StatusProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<Message | null>(null);
  const nextId = useRef(1);

  const announce = useCallback((text: string, tone: Tone = 'success', action?: StatusAction) => {
    setMessage({ id: nextId.current++, text, tone, action });
  }, []);
  const clear = useCallback(() => setMessage(null), []);

  useEffect(() => {
    if (!message || message.action) return;
    const timer = window.setTimeout(() => setMessage((m) => (m?.id === message.id ? null : m)), 6000);
    return () => window.clearTimeout(timer);
  }, [message]);

  const api = useMemo(() => ({ announce, clear }), [announce, clear]);

  return (
    <StatusContext value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
        <div
          className={`flex items-center gap-3 rounded-lg bg-zinc-900 px-4 py-2.5 text-sm text-white shadow-lg ${message ? 'pointer-events-auto' : 'sr-only'}`}
        >
          {message?.tone === 'success' && (
            <svg viewBox="0 0 20 20" fill="currentColor" className="size-4 text-emerald-400" aria-hidden="true">
              <path
                fillRule="evenodd"
                d="M16.704 4.153a.75.75 0 0 1 .143 1.052l-8 10.5a.75.75 0 0 1-1.127.075l-4.5-4.5a.75.75 0 0 1 1.06-1.06l3.894 3.893 7.48-9.817a.75.75 0 0 1 1.05-.143Z"
                clipRule="evenodd"
              />
            </svg>
          )}
          <p role="status" aria-live="polite" aria-atomic="true">
            {message?.text}
          </p>
          {message?.action && (
            <button
              type="button"
              className="rounded px-1.5 py-0.5 font-semibold text-indigo-300 hover:bg-white/10 hover:text-white"
              onClick={() => {
                const action = message.action;
                setMessage(null);
                action?.onAction();
              }}
            >
              {message.action.label}
            </button>
          )}
          {message && (
            <button
              type="button"
              className="-mr-1 rounded px-1 text-zinc-400 hover:text-white"
              onClick={() => setMessage(null)}
              aria-label="Dismiss message"
            >
              ×
            </button>
          )}
        </div>
      </div>
    </StatusContext>
  );
}

export function useStatus(): StatusApi {
  const api = useContext(StatusContext);
  if (!api) throw new Error('useStatus must be used inside <StatusProvider>');
  return api;
}
