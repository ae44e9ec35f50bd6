import type { Column, Table } from '@tanstack/react-table';
import { useEffect, useId, useRef, useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';

function ColumnChoices({ legend, columns }: { legend: string; columns: Column<ContactRecord>[] }) {
  return (
    <fieldset className="mb-1">
      <legend className="px-2 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{legend}</legend>
      <div className="space-y-0.5">
        {columns.map((column) => (
          <div key={column.id} className="rounded-md px-2 py-1.5 hover:bg-zinc-50">
            <Checkbox
              label={column.columnDef.meta?.label ?? column.id}
              checked={column.getIsVisible()}
              onChange={column.getToggleVisibilityHandler()}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** "Columns" disclosure: one checkbox per hideable column. Esc or a click outside closes it. */
export function ColumnsMenu({ table }: { table: Table<ContactRecord> }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());
  const standard = hideable.filter((c) => !c.columnDef.meta?.customField);
  const custom = hideable.filter((c) => c.columnDef.meta?.customField);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && !rootRef.current?.contains(event.relatedTarget)) setOpen(false);
    };
    const root = rootRef.current;
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root?.addEventListener('focusout', onFocusOut);
    return () => {
      root?.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={rootRef} className="relative">
      <Button ref={buttonRef} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-4 text-zinc-500" aria-hidden="true">
          <path d="M2 4.75A.75.75 0 0 1 2.75 4h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 4.75ZM2 10a.75.75 0 0 1 .75-.75h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 10Zm0 5.25a.75.75 0 0 1 .75-.75h14.5a.75.75 0 0 1 0 1.5H2.75a.75.75 0 0 1-.75-.75Z" />
        </svg>
        Columns
      </Button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute right-0 z-20 mt-1 max-h-[60dvh] w-56 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-2 shadow-lg"
      >
        <ColumnChoices legend="Show columns" columns={standard} />
        {custom.length > 0 && <ColumnChoices legend="Custom fields" columns={custom} />}
        <button
          type="button"
          className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-sm text-indigo-700 hover:bg-indigo-50"
          onClick={() => table.setColumnVisibility({ date_modified: false, ...Object.fromEntries(custom.map((c) => [c.id, false])) })}
        >
          Reset columns
        </button>
      </div>
    </div>
  );
}
