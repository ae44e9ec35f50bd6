import type { ImportCounts } from '../../api/imports';

const LABELS = {
  done: { created: 'Created', updated: 'Updated', skipped: 'Skipped', refused: 'Refused' },
  dry: { created: 'Would be created', updated: 'Would be updated', skipped: 'Would be skipped', refused: 'Would be refused' },
} as const;

/** The four counts of a run (or of a dry run: what would happen), as a labelled list. */
export function CountsList({ counts, dryRun = false, label }: { counts: ImportCounts; dryRun?: boolean; label: string }) {
  const labels = LABELS[dryRun ? 'dry' : 'done'];
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {(Object.keys(labels) as (keyof ImportCounts)[]).map((key) => (
        <div key={key} className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2">
          <dt className="text-xs text-zinc-600">{labels[key]}</dt>
          <dd className={`text-lg font-semibold tabular-nums ${key === 'refused' && counts[key] > 0 ? 'text-red-700' : 'text-zinc-900'}`}>
            {counts[key].toLocaleString()}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** "3 created, 1 updated, 0 skipped, 2 refused" in one sentence (the status region, the history list). */
export const countsSentence = (c: ImportCounts, dryRun = false) =>
  dryRun
    ? `${c.created.toLocaleString()} would be created, ${c.updated.toLocaleString()} updated, ${c.skipped.toLocaleString()} skipped, ${c.refused.toLocaleString()} refused`
    : `${c.created.toLocaleString()} created, ${c.updated.toLocaleString()} updated, ${c.skipped.toLocaleString()} skipped, ${c.refused.toLocaleString()} refused`;
