import type { ReactNode } from 'react';

/** Says that what is in a form came back from before a reload (a dialer draft), not from the server. */
export function DraftRestored({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
      <span className="font-semibold">Draft restored:</span> {children}
    </p>
  );
}
