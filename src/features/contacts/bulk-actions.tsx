import type { BulkAction } from '../../../server/contracts/bulk-jobs';
import { Button } from '../../components/ui/button';
import { formatCount } from '../../lib/format';

type Props = {
  count: number;
  /** Every contact the filter matches is selected (not just picked rows). */
  allMatching: boolean;
  /** Every row of the page shown is selected, and the filter matches more: offer to select all of them. */
  canSelectAllMatching: boolean;
  totalResults: number;
  canTransfer: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onDial: () => void;
  onExport: () => void;
  /** An export of the selection is being fetched. */
  exporting: boolean;
  onBulk: (action: BulkAction) => void;
  onDeletePermanently: () => void;
};

/** Shown while contacts are selected: what is selected, and what can be done to all of them. */
export function BulkActions(props: Props) {
  const {
    count,
    allMatching,
    canSelectAllMatching,
    totalResults,
    canTransfer,
    onSelectAllMatching,
    onClear,
    onDial,
    onExport,
    exporting,
    onBulk,
    onDeletePermanently,
  } = props;
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2"
    >
      <p className="text-sm font-medium text-indigo-900" aria-live="polite">
        {allMatching
          ? `All ${formatCount(totalResults, 'matching contact', 'matching contacts')} selected`
          : `${count.toLocaleString()} selected`}
      </p>
      {canSelectAllMatching && !allMatching && (
        <Button size="sm" variant="ghost" className="text-indigo-700" onClick={onSelectAllMatching}>
          Select all {totalResults.toLocaleString()} matching
        </Button>
      )}
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <Button size="sm" variant="primary" onClick={onDial}>
          Dial
        </Button>
        <Button size="sm" onClick={onExport} busy={exporting}>
          Export selected
        </Button>
        <Button size="sm" onClick={() => onBulk('add_tag')}>
          Add tag
        </Button>
        <Button size="sm" onClick={() => onBulk('remove_tag')}>
          Remove tag
        </Button>
        <Button size="sm" onClick={() => onBulk('move')}>
          Move to folder
        </Button>
        {canTransfer && (
          <Button size="sm" onClick={() => onBulk('transfer')}>
            Transfer
          </Button>
        )}
        <Button size="sm" onClick={() => onBulk('trash')}>
          Move to trash
        </Button>
        {!allMatching && (
          <Button size="sm" variant="danger" onClick={onDeletePermanently}>
            Delete permanently
          </Button>
        )}
      </div>
    </div>
  );
}
