import { formatDateTime } from '../../lib/format';

/** The imports' times in the app's one date format, whether the server writes them ISO or 'YYYY-MM-DD HH:MM:SS' (UTC). */
export function formatWhen(value: string | null | undefined): string {
  if (!value) return '—';
  if (/[TZ+]/.test(value.slice(10))) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return formatDateTime(date.toISOString().slice(0, 19).replace('T', ' '));
  }
  return formatDateTime(value);
}
