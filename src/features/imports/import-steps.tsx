export const STEPS = ['Upload', 'Map columns', 'Preview', 'Run', 'Done'] as const;
export type Step = (typeof STEPS)[number];

/** Where the import is: the five steps, the current one marked (aria-current="step"). */
export function ImportSteps({ current }: { current: Step }) {
  const at = STEPS.indexOf(current);
  return (
    <nav aria-label="Import steps">
      <ol className="flex flex-wrap gap-x-2 gap-y-1 text-sm">
        {STEPS.map((step, i) => (
          <li
            key={step}
            aria-current={i === at ? 'step' : undefined}
            className={`flex items-center gap-2 ${i === at ? 'font-semibold text-indigo-700' : i < at ? 'text-zinc-700' : 'text-zinc-400'}`}
          >
            <span
              aria-hidden="true"
              className={`flex size-6 items-center justify-center rounded-full text-xs ${i === at ? 'bg-indigo-600 text-white' : i < at ? 'bg-indigo-100 text-indigo-700' : 'bg-zinc-100'}`}
            >
              {i < at ? '✓' : i + 1}
            </span>
            <span>
              {step}
              {i < at && <span className="sr-only"> (done)</span>}
            </span>
            {i < STEPS.length - 1 && (
              <span aria-hidden="true" className="text-zinc-300">
                →
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
