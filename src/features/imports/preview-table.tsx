import type { PreviewRow } from '../../api/imports';
import { addressLines, formatPhone, fullName, phoneTypeWord } from '../../lib/format';
import { ImportTable } from './import-table';

const OUTCOMES: Record<PreviewRow['outcome'], { text: string; tone: string }> = {
  create: { text: 'Will be added', tone: 'text-emerald-800' },
  update: { text: 'Will update the existing contact', tone: 'text-indigo-800' },
  skip: { text: 'Skipped: the same e-mail or phone is already a contact', tone: 'text-zinc-600' },
  refuse: { text: 'Refused', tone: 'text-red-800' },
};

/** A row's outcome in words, with the server's reason ("Row 12 has 9 fields; the header has 7"). */
export function outcomeText(row: PreviewRow): string {
  const { text } = OUTCOMES[row.outcome];
  return row.reason ? `${text}: ${row.reason}` : text;
}

function Cell({ items }: { items: string[] }) {
  if (items.length === 0) return <span className="text-zinc-400">—</span>;
  return (
    <ul className="space-y-0.5">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

function extras(contact: NonNullable<PreviewRow['contact']>): string[] {
  const custom = contact.custom_fields.filter((f) => f.value).map((f) => `${f.name}: ${f.value}`);
  const notes = contact.notes.filter(Boolean).map((n) => `Note: ${n}`);
  return [...(contact.do_not_call ? ['Do not call'] : []), ...custom, ...notes];
}

/** The first rows of the file as they will be stored, and what happens to each. */
export function PreviewTable({ rows }: { rows: PreviewRow[] }) {
  return (
    <ImportTable
      caption="The first rows as they will be stored"
      headings={['Row', 'Name', 'E-mails', 'Phones', 'Address', 'Folder', 'Tags', 'Other fields', 'Outcome']}
    >
      {rows.map((row) => {
        const c = row.contact;
        return (
          <tr key={row.row_no}>
            <td className="px-3 py-2 text-zinc-500 tabular-nums">{row.row_no}</td>
            <th scope="row" className="px-3 py-2 text-left font-medium text-zinc-900">
              {(c && fullName(c.first_name, c.last_name)) || <span className="font-normal text-zinc-400">No name</span>}
            </th>
            <td className="px-3 py-2">
              <Cell items={c?.emails ?? []} />
            </td>
            <td className="px-3 py-2 whitespace-nowrap">
              <Cell
                items={(c?.phones ?? []).map(
                  (p) => `${formatPhone(p.phone_number)}${p.type_name ? ` (${phoneTypeWord(p.type_name)})` : ''}`,
                )}
              />
            </td>
            <td className="px-3 py-2">
              <Cell items={c ? addressLines({ ...c.primary_address, address_2: '' }) : []} />
            </td>
            <td className="px-3 py-2">
              <Cell items={c?.category?.name ? [c.category.name] : []} />
            </td>
            <td className="px-3 py-2">
              <Cell items={c?.tags ?? []} />
            </td>
            <td className="px-3 py-2">
              <Cell items={c ? extras(c) : []} />
            </td>
            <td className={`px-3 py-2 ${OUTCOMES[row.outcome].tone}`}>{outcomeText(row)}</td>
          </tr>
        );
      })}
    </ImportTable>
  );
}
