import { Button } from '../../components/ui/button';
import { InlineSelect } from '../../components/ui/select';
import { formatCount } from '../../lib/format';
import { PAGE_SIZES } from './use-contact-list-params';

type Props = {
  page: number;
  pageSize: number;
  totalPages: number;
  totalResults: number;
  disabled: boolean;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
};

export function Pagination({ page, pageSize, totalPages, totalResults, disabled, onPage, onPageSize }: Props) {
  const pages = Math.max(totalPages, 1);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-zinc-600">
      <p>{formatCount(totalResults, 'contact', 'contacts')}</p>
      <InlineSelect
        label="Rows per page"
        options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        value={String(pageSize)}
        onChange={(e) => onPageSize(Number(e.target.value))}
      />
      <div className="ml-auto flex items-center gap-3">
        <p aria-live="polite">
          Page {Math.min(page, pages).toLocaleString()} of {pages.toLocaleString()}
        </p>
        <div className="flex gap-1">
          <Button size="sm" onClick={() => onPage(page - 1)} disabled={disabled || page <= 1}>
            <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
              <path fillRule="evenodd" d="M11.78 5.22a.75.75 0 0 1 0 1.06L8.06 10l3.72 3.72a.75.75 0 1 1-1.06 1.06l-4.25-4.25a.75.75 0 0 1 0-1.06l4.25-4.25a.75.75 0 0 1 1.06 0Z" clipRule="evenodd" />
            </svg>
            Previous page
          </Button>
          <Button size="sm" onClick={() => onPage(page + 1)} disabled={disabled || page >= pages}>
            Next page
            <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
              <path fillRule="evenodd" d="M8.22 5.22a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06l-4.25 4.25a.75.75 0 0 1-1.06-1.06L11.94 10 8.22 6.28a.75.75 0 0 1 0-1.06Z" clipRule="evenodd" />
            </svg>
          </Button>
        </div>
      </div>
    </nav>
  );
}
