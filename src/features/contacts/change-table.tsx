export type ChangeRow = { field: string; label: string; cells: string[]; /** Both sides changed this field. */ clash?: boolean };

/** A field-by-field comparison: one row a field, one column a version of the contact. */
export function ChangeTable({ caption, headings, rows }: { caption: string; headings: string[]; rows: ChangeRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
            <th scope="col" className="py-1.5 pr-3 font-semibold">
              Field
            </th>
            {headings.map((h) => (
              <th key={h} scope="col" className="py-1.5 pr-3 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => (
            <tr key={row.field} className={row.clash ? 'bg-amber-50' : ''}>
              <th scope="row" className="py-1.5 pr-3 font-medium text-zinc-700">
                {row.label}
                {row.clash && <span className="ml-1 text-xs font-normal text-amber-800">(both changed)</span>}
              </th>
              {row.cells.map((cell, i) => (
                <td key={i} className="py-1.5 pr-3 break-words text-zinc-800">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
