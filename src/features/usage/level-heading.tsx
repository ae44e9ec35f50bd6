import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The heading of a step of the drill-down. When the step was opened from another (`focus`), it takes the focus, so a
 * keyboard or screen reader user goes on from the new step's start instead of from a link that is gone.
 */
export function LevelHeading({ focus, children }: { focus: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h2 ref={ref} tabIndex={-1} className="text-lg font-semibold tracking-tight text-zinc-900 outline-none">
      {children}
    </h2>
  );
}
