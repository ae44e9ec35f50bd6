import { useEffect, useId, useState, type ReactNode } from 'react';
import { InlineSelect } from '../../components/ui/select';
import { formatCount } from '../../lib/format';
import { PAGE_SIZES } from './use-contact-list-params';

type Props = {
  page: number;
  pageSize: number;
  totalPages: number;
  totalResults: number;
  /** A page is on its way: the buttons wait (they stay focusable, so focus stays on the pager). */
  busy: boolean;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
};

const chevrons = {
  first:
    'M15.79 14.77a.75.75 0 0 1-1.06.02l-4.5-4.25a.75.75 0 0 1 0-1.08l4.5-4.25a.75.75 0 1 1 1.04 1.08L11.832 10l3.938 3.71a.75.75 0 0 1 .02 1.06Zm-6 0a.75.75 0 0 1-1.06.02l-4.5-4.25a.75.75 0 0 1 0-1.08l4.5-4.25a.75.75 0 1 1 1.04 1.08L5.832 10l3.938 3.71a.75.75 0 0 1 .02 1.06Z',
  previous:
    'M11.78 5.22a.75.75 0 0 1 0 1.06L8.06 10l3.72 3.72a.75.75 0 1 1-1.06 1.06l-4.25-4.25a.75.75 0 0 1 0-1.06l4.25-4.25a.75.75 0 0 1 1.06 0Z',
  next: 'M8.22 5.22a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06l-4.25 4.25a.75.75 0 0 1-1.06-1.06L11.94 10 8.22 6.28a.75.75 0 0 1 0-1.06Z',
  last: 'M10.21 14.77a.75.75 0 0 1 .02-1.06L14.168 10 10.23 6.29a.75.75 0 1 1 1.04-1.08l4.5 4.25a.75.75 0 0 1 0 1.08l-4.5 4.25a.75.75 0 0 1-1.06-.02Zm-6 0a.75.75 0 0 1 .02-1.06L8.168 10 4.23 6.29a.75.75 0 1 1 1.04-1.08l4.5 4.25a.75.75 0 0 1 0 1.08l-4.5 4.25a.75.75 0 0 1-1.06-.02Z',
} as const;

/**
 * A pager button that never loses focus: when it cannot act (first page, last page, a page loading) it is
 * aria-disabled rather than disabled, so pressing it again does nothing but focus stays where the user is.
 */
function PagerButton({
  label,
  icon,
  unavailable,
  onPress,
  children,
}: {
  label: string;
  icon: keyof typeof chevrons;
  unavailable: boolean;
  onPress: () => void;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-disabled={unavailable || undefined}
      onClick={() => !unavailable && onPress()}
      className="inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-md bg-white px-2 text-sm font-medium text-zinc-800 shadow-sm ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50 aria-disabled:cursor-not-allowed aria-disabled:text-zinc-400 aria-disabled:hover:bg-white"
    >
      <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
        <path fillRule="evenodd" clipRule="evenodd" d={chevrons[icon]} />
      </svg>
      {children}
    </button>
  );
}

function GoToPage({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const id = useId();
  const [text, setText] = useState(String(page));
  useEffect(() => setText(String(page)), [page]);
  const go = () => {
    const n = Number(text);
    if (Number.isInteger(n) && n >= 1 && n <= pages && n !== page) onPage(n);
    else setText(String(page));
  };
  return (
    <form
      className="flex items-center gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
    >
      <label htmlFor={id} className="whitespace-nowrap">
        Page
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={pages}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => setText(String(page))}
        aria-describedby={`${id}-of`}
        className="h-8 w-16 rounded-md border border-zinc-300 bg-white px-2 text-sm tabular-nums shadow-sm"
      />
      <span id={`${id}-of`} className="whitespace-nowrap">
        of {pages.toLocaleString()}
      </span>
      <button type="submit" className="h-8 rounded-md px-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50">
        Go
      </button>
    </form>
  );
}

export function Pagination({ page, pageSize, totalPages, totalResults, busy, onPage, onPageSize }: Props) {
  const pages = Math.max(totalPages, 1);
  const current = Math.min(page, pages);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-zinc-600">
      <p>{formatCount(totalResults, 'contact', 'contacts')}</p>
      <InlineSelect
        label="Rows per page"
        options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        value={String(pageSize)}
        onChange={(e) => onPageSize(Number(e.target.value))}
      />
      <div className="ml-auto flex flex-wrap items-center gap-3">
        <p aria-live="polite" className="sr-only">
          Page {current.toLocaleString()} of {pages.toLocaleString()}
        </p>
        <div className="flex items-center gap-1">
          <PagerButton label="First page" icon="first" unavailable={busy || current <= 1} onPress={() => onPage(1)} />
          <PagerButton label="Previous page" icon="previous" unavailable={busy || current <= 1} onPress={() => onPage(current - 1)} />
        </div>
        <GoToPage page={current} pages={pages} onPage={onPage} />
        <div className="flex items-center gap-1">
          <PagerButton label="Next page" icon="next" unavailable={busy || current >= pages} onPress={() => onPage(current + 1)} />
          <PagerButton label="Last page" icon="last" unavailable={busy || current >= pages} onPress={() => onPage(pages)} />
        </div>
      </div>
    </nav>
  );
}
