/*
 * Contacts export (docs/api.md, "Export"). A view downloads from a plain link, which the browser streams to disk with
 * the session cookie (a GET needs no CSRF header). A selection's ids go in a POST body, which needs the header, so it
 * is fetched and handed to the browser as a file (a selection is picked rows: a few pages of them at most).
 */
import { apiFile, buildUrl } from '../lib/api-client';
import type { ContactListFilter, ContactListParams } from './contacts';

/** What an export of a view is given: its filter, and its sort (only "oldest first" changes the file's order). */
export type ExportView = ContactListFilter & Pick<ContactListParams, 'sort_by' | 'sort_order'>;

const EXPORT_PATH = '/rest/1/contacts/export';

/** The address of the export of a list's view (its folder, tag, owner and search). */
export const exportViewUrl = (view: ExportView) => buildUrl(EXPORT_PATH, view);

/** Hands the browser a download, as a click on a link would. */
function download(href: string, filename?: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = filename ?? '';
  document.body.append(link);
  link.click();
  link.remove();
}

export const downloadView = (view: ExportView) => download(exportViewUrl(view));

const filenameOf = (response: Response) => /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];

/** Exports these contacts: resolves once the browser has the file. */
export async function downloadSelection(ids: string[]): Promise<void> {
  const response = await apiFile(EXPORT_PATH, { method: 'POST', body: { contact_ids: ids }, headers: { Accept: 'text/csv' } });
  const url = URL.createObjectURL(await response.blob());
  try {
    download(url, filenameOf(response) ?? 'ringbook-contacts.csv');
  } finally {
    // The download has its own copy once started; a moment later the blob can go.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
