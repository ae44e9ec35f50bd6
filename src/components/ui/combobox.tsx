import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

export type ComboboxOption = { id: string; label: string; /** Shown beside the label, e.g. a count. */ detail?: string };

type Props = {
  label: string;
  hideLabel?: boolean;
  value: string;
  onValueChange: (text: string) => void;
  options: ComboboxOption[];
  onSelect: (option: ComboboxOption) => void;
  placeholder?: string;
  disabled?: boolean;
  hint?: ReactNode;
  /** Said in the list when nothing matches. */
  emptyText?: string;
};

/**
 * An editable combobox with a list of suggestions (WAI-ARIA 1.2 combobox pattern): focus stays in the input,
 * aria-activedescendant follows ArrowDown/ArrowUp, Enter picks the active option, Esc closes the list (then clears).
 */
export function Combobox({
  label,
  hideLabel = false,
  value,
  onValueChange,
  options,
  onSelect,
  placeholder,
  disabled,
  hint,
  emptyText,
}: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const showList = open && (options.length > 0 || Boolean(emptyText && value.trim()));
  const activeOption = showList && active >= 0 ? options[active] : undefined;

  const pick = (option: ComboboxOption) => {
    onSelect(option);
    setActive(-1);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const down = event.key === 'ArrowDown';
      setActive((i) => (down ? (i + 1) % options.length : i <= 0 ? options.length - 1 : i - 1));
    } else if (event.key === 'Enter') {
      if (activeOption) {
        event.preventDefault();
        pick(activeOption);
      }
    } else if (event.key === 'Escape') {
      /* Inside a dialog the first Esc belongs to the list. */
      if (showList) {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (value) {
        event.preventDefault();
        onValueChange('');
      }
    }
  };

  return (
    <div className="relative">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'mb-1 block text-sm font-medium text-zinc-700'}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? `${id}-opt-${activeOption.id}` : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => {
          onValueChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="block h-9 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus-visible:border-indigo-500 disabled:bg-zinc-50"
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500">
          {hint}
        </p>
      )}
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!showList}
        className="absolute z-30 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-zinc-200 bg-white p-1 shadow-lg"
      >
        {options.map((option, i) => (
          <li
            key={option.id}
            id={`${id}-opt-${option.id}`}
            role="option"
            aria-selected={i === active}
            /* Keep focus in the input: the option is chosen on click. */
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(option)}
            onMouseEnter={() => setActive(i)}
            className={`flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-1.5 text-sm ${
              i === active ? 'bg-indigo-50 text-indigo-900' : 'text-zinc-800'
            }`}
          >
            <span className="truncate">{option.label}</span>
            {option.detail && <span className="shrink-0 text-xs text-zinc-500">{option.detail}</span>}
          </li>
        ))}
        {options.length === 0 && emptyText && (
          <li role="presentation" className="px-3 py-1.5 text-sm text-zinc-500">
            {emptyText}
          </li>
        )}
      </ul>
    </div>
  );
}
