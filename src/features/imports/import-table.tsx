import type { ReactNode } from 'react';

/** A column's heading; `wide` ones are left out on a small screen (their cells say `hidden sm:table-cell` too). */
type Heading = string | { label: string; wide: true };

/** The imports' tables (columns to map, preview rows, past imports): a caption for screen readers, a head, the rows. */
export function ImportTable({ caption, headings, children }: { caption: string; headings: Heading[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-zinc-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left text-xs font-medium tracking-wide text-zinc-500 uppercase">
            {headings.map((h) =>
              typeof h === 'string' ? (
                <th key={h} scope="col" className="px-3 py-2 whitespace-nowrap">
                  {h}
                </th>
              ) : (
                <th key={h.label} scope="col" className="hidden px-3 py-2 whitespace-nowrap sm:table-cell">
                  {h.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 align-top">{children}</tbody>
      </table>
    </div>
  );
}
