import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';

/*
 * The ARIA grid pattern on a <table role="grid">: the grid is one Tab stop (a roving tabindex: the active cell, or
 * the one control inside it, has tabIndex 0, everything else -1), and the keys move between cells:
 *   arrows       a cell up, down, left, right (the header row included)
 *   Home / End   first / last cell of the row; with Ctrl, of the grid
 *   PageUp/Down  ten rows up / down
 *   Enter        opens the row's contact (a link or button in the cell does its own thing)
 *   Space        selects the row (the checkbox and buttons do their own thing)
 *   E            edits the row's contact
 * Row 0 is the header row; body rows are 1..n. The DOM is the source of truth for which cells exist.
 */

export type GridPosition = { row: number; col: number };

type Options = {
  /** The cell the grid starts from, and goes back to when `resetKey` changes (a new page, sort or filter). */
  initial: GridPosition;
  resetKey: string;
  onOpen: (bodyRow: number) => void;
  onEdit: (bodyRow: number) => void;
  onToggle: (bodyRow: number) => void;
};

const WIDGET = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';
const PAGE_ROWS = 10;

const widgetOf = (cell: HTMLElement) => cell.querySelector<HTMLElement>(WIDGET);
const focusTargetOf = (cell: HTMLElement) => widgetOf(cell) ?? cell;

function cellAt(table: HTMLTableElement, { row, col }: GridPosition): HTMLTableCellElement | null {
  const tr = table.rows[row];
  return tr?.cells[Math.min(col, tr.cells.length - 1)] ?? null;
}

function clamp(table: HTMLTableElement, { row, col }: GridPosition): GridPosition {
  const lastRow = table.rows.length - 1;
  const r = Math.max(0, Math.min(row, lastRow));
  const lastCol = (table.rows[r]?.cells.length ?? 1) - 1;
  return { row: r, col: Math.max(0, Math.min(col, lastCol)) };
}

/** Skeleton rows while loading are aria-hidden and not part of the grid's navigation. */
const navigable = (table: HTMLTableElement) => Array.from(table.rows).every((r) => r.getAttribute('aria-hidden') !== 'true');

function nextPosition(event: KeyboardEvent, at: GridPosition, table: HTMLTableElement): GridPosition | null {
  const lastRow = table.rows.length - 1;
  const lastCol = (table.rows[at.row]?.cells.length ?? 1) - 1;
  switch (event.key) {
    case 'ArrowRight':
      return { ...at, col: Math.min(at.col + 1, lastCol) };
    case 'ArrowLeft':
      return { ...at, col: Math.max(at.col - 1, 0) };
    case 'ArrowDown':
      return { ...at, row: Math.min(at.row + 1, lastRow) };
    case 'ArrowUp':
      return { ...at, row: Math.max(at.row - 1, 0) };
    case 'Home':
      return event.ctrlKey ? { row: Math.min(1, lastRow), col: 0 } : { ...at, col: 0 };
    case 'End':
      return event.ctrlKey ? { row: lastRow, col: lastCol } : { ...at, col: lastCol };
    case 'PageDown':
      return { ...at, row: Math.min(Math.max(at.row, 1) + PAGE_ROWS, lastRow) };
    case 'PageUp':
      return { ...at, row: at.row <= 1 ? 0 : Math.max(at.row - PAGE_ROWS, 1) };
    default:
      return null;
  }
}

export function useGridKeyboard(tableRef: RefObject<HTMLTableElement | null>, { initial, resetKey, onOpen, onEdit, onToggle }: Options) {
  const active = useRef<GridPosition>(initial);
  const lastReset = useRef(resetKey);

  /* After every render: exactly one tab stop, at the active cell (rows come and go with pages and loading). */
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table) return;
    if (lastReset.current !== resetKey) {
      lastReset.current = resetKey;
      active.current = initial;
    }
    if (!navigable(table)) return;
    active.current = clamp(table, active.current);
    for (const cell of table.querySelectorAll<HTMLElement>('th, td')) {
      cell.tabIndex = -1;
      for (const widget of cell.querySelectorAll<HTMLElement>(WIDGET)) widget.tabIndex = -1;
    }
    const cell = cellAt(table, active.current);
    if (cell) focusTargetOf(cell).tabIndex = 0;
  });

  const moveTo = useCallback(
    (position: GridPosition) => {
      const table = tableRef.current;
      if (!table) return;
      const previous = cellAt(table, active.current);
      if (previous) focusTargetOf(previous).tabIndex = -1;
      active.current = clamp(table, position);
      const cell = cellAt(table, active.current);
      if (!cell) return;
      const target = focusTargetOf(cell);
      target.tabIndex = 0;
      target.focus({ preventScroll: true });
      cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    },
    [tableRef],
  );

  /* A click (or any focus) inside a cell makes it the active one. */
  const onFocus = useCallback((event: FocusEvent<HTMLTableElement>) => {
    const cell = (event.target as HTMLElement).closest('th, td');
    const tr = cell?.parentElement;
    if (!(cell instanceof HTMLTableCellElement) || !(tr instanceof HTMLTableRowElement)) return;
    active.current = { row: tr.rowIndex, col: cell.cellIndex };
  }, []);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTableElement>) => {
      const table = tableRef.current;
      if (!table || event.altKey || event.metaKey || !navigable(table)) return;
      const target = event.target as HTMLElement;
      const at = active.current;
      const next = nextPosition(event, at, table);
      if (next) {
        event.preventDefault();
        moveTo(next);
        return;
      }
      if (at.row === 0 || event.ctrlKey) return;
      const isButtonOrLink = target.matches('button, a[href]');
      if (event.key === 'Enter' && !isButtonOrLink) {
        event.preventDefault();
        onOpen(at.row - 1);
      } else if (event.key === ' ' && !target.matches('button, input')) {
        event.preventDefault();
        onToggle(at.row - 1);
      } else if (event.key.toLowerCase() === 'e' && !target.matches('input[type=text], textarea')) {
        event.preventDefault();
        onEdit(at.row - 1);
      }
    },
    [tableRef, moveTo, onOpen, onEdit, onToggle],
  );

  return { onKeyDown, onFocus };
}
