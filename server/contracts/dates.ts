/**
 * The contract's consent_date formats: YYYY-MM-DD, MM-DD-YYYY, M/D/YYYY, M/D/YY (month first). Anything
 * blank, unparseable, impossible (02/30) or in the future gives undefined: it is ignored, never an error.
 */
export function parseConsentDate(value: unknown, today: Date): string | undefined {
  const iso = parseFlexibleDate(value, today);
  return iso && iso <= today.toISOString().slice(0, 10) ? iso : undefined;
}

/** A calendar date in one of the contract's formats as YYYY-MM-DD; undefined when it is not one. */
export function parseFlexibleDate(value: unknown, today = new Date()): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const s = String(value).trim();
  let y: number, m: number, d: number;
  let match: RegExpMatchArray | null;
  if ((match = s.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/))) [y, m, d] = [+match[1]!, +match[2]!, +match[3]!];
  else if ((match = s.match(/^(\d{1,2})[-/](\d{1,2})[-/](\d{4}|\d{2})$/))) {
    [m, d, y] = [+match[1]!, +match[2]!, +match[3]!];
    if (match[3]!.length === 2) y += y > today.getUTCFullYear() % 100 ? 1900 : 2000;
  } else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}
