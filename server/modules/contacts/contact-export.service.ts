import type { Scope } from '../../auth/access.js';
import type { ListContactsQuery } from '../../contracts/contacts.js';
import type { Db } from '../../db/database.js';
import { csvRecord, UTF8_BOM } from './contact-csv.js';
import { exportColumns, exportContacts, ownerLabels } from './contact-export-rows.js';
import { exportFields, ownerNames } from './contact-export.repository.js';
import { nextIdsOfList } from './contact-list.repository.js';
import { loadDetails, recordRows } from './contact-records.repository.js';
import { findVisibleVersions } from './contacts.repository.js';

/** Contacts read per chunk: one query per table for each, never one per contact. */
export const EXPORT_CHUNK = 1_000;

/** What an export reads: a list's view (its filters and search), or a selection of ids. */
export type ExportSource = { view: ListContactsQuery } | { ids: number[] };

/** The next chunk of ids to export after the last one written (none yet: from the start), within the scope. */
type NextIds = (lastId: number | undefined) => Promise<number[]>;

/** A view in "oldest first" order is exported so; every other sort of the grid, newest first (docs/api.md). */
const directionOf = (view: ListContactsQuery) => (view.sort_by === 'date_added' && view.sort_order === 'ASC' ? 'asc' : 'desc');

function nextIdsOf(db: Db, scope: Scope, source: ExportSource, chunk: number): NextIds {
  if ('view' in source) return (lastId) => nextIdsOfList(db, scope, source.view, lastId, chunk, directionOf(source.view));
  const wanted = [...new Set(source.ids)].sort((a, b) => b - a);
  return async (lastId) => {
    // A chunk of the selection may be all out of scope: read on until some are in it, or the selection ends.
    let from = lastId === undefined ? 0 : wanted.findIndex((id) => id < lastId);
    while (from >= 0 && from < wanted.length) {
      const slice = wanted.slice(from, from + chunk);
      const visible = new Set((await findVisibleVersions(db, scope, slice)).map((r) => r.id));
      const ids = slice.filter((id) => visible.has(id));
      if (ids.length) return ids;
      from += chunk;
    }
    return [];
  };
}

/**
 * The CSV of an export, as text pieces: the byte-order mark and header first (read before anything is sent, so a
 * failure there is an ordinary error answer), then one piece per chunk of contacts, newest (or oldest) first. Nothing is held
 * beyond the chunk being written: the caller pulls the next piece once the last one is sent.
 */
export async function* exportCsv(db: Db, scope: Scope, source: ExportSource, chunk = EXPORT_CHUNK): AsyncGenerator<string> {
  const [fields, owners] = await Promise.all([exportFields(db, scope.orgId), ownerNames(db, scope.orgId)]);
  const columns = exportColumns(fields);
  const ownerOf = ownerLabels(owners);
  yield UTF8_BOM + csvRecord(columns.map((c) => c.header));
  const nextIds = nextIdsOf(db, scope, source, chunk);
  let lastId: number | undefined;
  for (;;) {
    const ids = await nextIds(lastId);
    if (!ids.length) return;
    lastId = ids[ids.length - 1];
    const rows = await recordRows(db, ids);
    if (!rows.length) continue;
    const contacts = exportContacts(ids, rows, await loadDetails(db, rows));
    yield contacts.map((c) => csvRecord(columns.map((column) => column.cell(c, ownerOf)))).join('');
  }
}
