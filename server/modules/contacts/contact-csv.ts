/*
 * The CSV of a contacts export (docs/api.md, "Export"): RFC 4180 (every cell quoted when it holds a quote, a comma or a
 * line break; records end in CRLF), and no cell a spreadsheet would run as a formula.
 */

/** A spreadsheet reads a cell starting with one of these as a formula (or, tab and CR, as the start of one). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a value that would start a formula is prefixed with ' (the spreadsheet's own "this is text" mark). */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRecord = (cells: readonly (string | number | null | undefined)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Excel reads a file as UTF-8 only when it starts with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';
