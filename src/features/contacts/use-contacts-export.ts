import { useState } from 'react';
import { downloadSelection, downloadView, type ExportView } from '../../api/contacts-export';
import { useStatus } from '../../components/ui/status-message';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

type Target = { view: ExportView; total: number; ids: string[]; allMatching: boolean };

/**
 * Export from the contacts screen: the view streams straight to the browser's downloads; a selection is fetched first
 * (its ids go in a POST body), and `exporting` says so meanwhile. Each says it has started, in the status region.
 */
export function useContactsExport({ view, total, ids, allMatching }: Target) {
  const { announce } = useStatus();
  const [exporting, setExporting] = useState(false);

  const exportView = () => {
    downloadView(view);
    announce(`Export started: ${formatCount(total, 'contact', 'contacts')} to a CSV file in your downloads.`);
  };

  const exportSelected = () => {
    if (allMatching) return exportView();
    const what = formatCount(ids.length, 'selected contact', 'selected contacts');
    setExporting(true);
    announce(`Exporting ${what}…`, 'info');
    downloadSelection(ids)
      .then(() => announce(`Exported ${what} to a CSV file.`))
      .catch((error: unknown) => announce(`The export failed: ${errorMessage(error)}`, 'info'))
      .finally(() => setExporting(false));
  };

  return { exporting, exportView, exportSelected };
}
