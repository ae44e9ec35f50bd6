import type { OnChangeFn, RowSelectionState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { BulkSelection } from '../../api/bulk-jobs';
import type { ContactListFilter } from '../../api/contacts';
import { useSession } from '../auth/use-session';

/**
 * What the grid has selected: contacts picked one by one (kept across pages, sorts and page sizes), or every
 * contact the current filter matches ("select all N matching"). A new filter starts afresh; the selection is kept
 * for the tab's session. Unticking a row of an
 * all-matching selection keeps the rest of the page ticked: the API takes a filter or ids, not a filter minus ids.
 */
/* Ids are kept in the order they were picked (object keys would put numeric ids in numeric order). */
type Selection = { kind: 'ids'; ids: string[] } | { kind: 'all' };

const NONE: Selection = { kind: 'ids', ids: [] };
const STORAGE_KEY = 'ringbook.contacts.selection';
type Stored = { key: string; selection: Selection };

/* Kept for the tab's session, so opening a contact and coming back does not lose a selection. */
function loadSelection(filterKey: string): Stored {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null;
    if (stored?.key === filterKey && (stored.selection.kind === 'all' || Array.isArray(stored.selection.ids))) return stored;
  } catch {
    /* unreadable: start afresh */
  }
  return { key: filterKey, selection: NONE };
}

export function useContactSelection(filter: ContactListFilter, pageRows: ContactRecord[], totalResults: number) {
  const { member } = useSession();
  /* A selection belongs to one member's one filtered view. */
  const filterKey = JSON.stringify([member?.user_id ?? null, filter]);
  const [state, setState] = useState<Stored>(() => loadSelection(filterKey));
  useEffect(() => {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
    } catch {
      /* storage full or blocked: the selection lives as long as the screen */
    }
  }, [state]);
  const selection = state.key === filterKey ? state.selection : NONE;
  const set = useCallback((next: Selection) => setState({ key: filterKey, selection: next }), [filterKey]);

  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries((selection.kind === 'all' ? pageRows.map((r) => r.contact_user_id) : selection.ids).map((id) => [id, true])),
    [selection, pageRows],
  );

  const onRowSelectionChange: OnChangeFn<RowSelectionState> = (updater) => {
    const next = typeof updater === 'function' ? updater(rowSelection) : updater;
    const kept = (selection.kind === 'ids' ? selection.ids : []).filter((id) => next[id]);
    const keptSet = new Set(kept);
    const added = pageRows.map((r) => r.contact_user_id).filter((id) => next[id] && !keptSet.has(id));
    set({ kind: 'ids', ids: [...kept, ...added] });
  };

  const clear = useCallback(() => setState((s) => ({ key: s.key, selection: NONE })), []);
  const ids = selection.kind === 'ids' ? selection.ids : [];
  const allMatching = selection.kind === 'all';

  return {
    rowSelection,
    onRowSelectionChange,
    allMatching,
    /** Picked ids, in the order they were picked (empty when all matching are selected). */
    ids,
    count: allMatching ? totalResults : ids.length,
    selectAllMatching: () => set({ kind: 'all' }),
    clear,
    /** Drops contacts that are gone (deleted) from a picked selection. */
    forget: (gone: string[]) => {
      if (selection.kind !== 'ids') return;
      set({ kind: 'ids', ids: ids.filter((id) => !gone.includes(id)) });
    },
    /** What a bulk job works on: the picked ids, or the filter itself. */
    bulkSelection: (): BulkSelection => (allMatching ? { kind: 'filter', filter } : { kind: 'ids', ids }),
  };
}

export type ContactSelection = ReturnType<typeof useContactSelection>;
