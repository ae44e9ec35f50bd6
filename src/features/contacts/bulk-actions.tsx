import { Button } from '../../components/ui/button';
import type { DeleteMode } from '../../api/contacts';

/** Shown while rows are selected: dial them, or trash or delete them (each asks for confirmation first). */
export function BulkActions({ count, onAction, onClear, onDial }: { count: number; onAction: (mode: DeleteMode) => void; onClear: () => void; onDial: () => void }) {
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2"
    >
      <p className="text-sm font-medium text-indigo-900">{count.toLocaleString()} selected</p>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <Button size="sm" variant="ghost" onClick={onClear}>
          Clear selection
        </Button>
        <Button size="sm" variant="primary" onClick={onDial}>
          Dial
        </Button>
        <Button size="sm" onClick={() => onAction('trash')}>
          Move to trash
        </Button>
        <Button size="sm" variant="danger" onClick={() => onAction('permanent')}>
          Delete permanently
        </Button>
      </div>
    </div>
  );
}
