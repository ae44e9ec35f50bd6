import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/*
 * Labelled form controls. An error is shown under the control, linked with aria-describedby and
 * flagged with aria-invalid; a hint is linked the same way.
 */

const controlBase =
  'block w-full rounded-md border bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-0 disabled:bg-zinc-50 disabled:text-zinc-500';
const controlOk = 'border-zinc-300 focus-visible:border-indigo-500 focus-visible:ring-indigo-500/30';
const controlBad = 'border-red-500 focus-visible:border-red-500 focus-visible:ring-red-500/30';

type FieldChrome = { label: ReactNode; error?: string | undefined; hint?: ReactNode; className?: string; required?: boolean };

function useFieldIds(error: string | undefined, hint: ReactNode) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  /** What every control of a field carries: its id, and its error and hint wiring. */
  const control = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  return { frame: { id, errorId, hintId }, control };
}

function FieldFrame({
  id,
  label,
  required,
  hint,
  hintId,
  error,
  errorId,
  className = '',
  children,
}: FieldChrome & { id: string; hintId: string; errorId: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-zinc-700">
        {label}
        {required && (
          <span className="text-red-600" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-zinc-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export type TextFieldProps = FieldChrome & Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> & { ref?: Ref<HTMLInputElement> };

export function TextField({ label, error, hint, className, required, ...input }: TextFieldProps) {
  const { frame, control } = useFieldIds(error, hint);
  return (
    <FieldFrame {...frame} label={label} error={error} hint={hint} className={className} required={required}>
      <input
        {...control}
        aria-required={required || undefined}
        className={`${controlBase} h-9 ${error ? controlBad : controlOk}`}
        {...input}
      />
    </FieldFrame>
  );
}

export type TextareaFieldProps = FieldChrome &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'className'> & { ref?: Ref<HTMLTextAreaElement> };

export function TextareaField({ label, error, hint, className, required, ...textarea }: TextareaFieldProps) {
  const { frame, control } = useFieldIds(error, hint);
  return (
    <FieldFrame {...frame} label={label} error={error} hint={hint} className={className} required={required}>
      <textarea {...control} className={`${controlBase} min-h-20 py-2 ${error ? controlBad : controlOk}`} {...textarea} />
    </FieldFrame>
  );
}

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectFieldProps = FieldChrome &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> & { options: SelectOption[]; ref?: Ref<HTMLSelectElement> };

function SelectOptions({ options }: { options: SelectOption[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value} disabled={o.disabled}>
      {o.label}
    </option>
  ));
}

export function SelectField({ label, error, hint, className, required, options, ...select }: SelectFieldProps) {
  const { frame, control } = useFieldIds(error, hint);
  return (
    <FieldFrame {...frame} label={label} error={error} hint={hint} className={className} required={required}>
      <select {...control} className={`${controlBase} h-9 pr-8 ${error ? controlBad : controlOk}`} {...select}>
        <SelectOptions options={options} />
      </select>
    </FieldFrame>
  );
}

/** A file input's look: its button drawn as the app's secondary button. */
export const fileInputClass =
  'block text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm';

/** A bare select with a visually hidden or inline label (toolbars, pagers). */
export function InlineSelect({
  label,
  hideLabel = false,
  options,
  className = '',
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> & {
  label: string;
  hideLabel?: boolean;
  options: SelectOption[];
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-sm whitespace-nowrap text-zinc-600'}>
        {label}
      </label>
      <select id={id} className={`${controlBase} ${controlOk} h-9 w-auto min-w-0 pr-8`} {...select}>
        <SelectOptions options={options} />
      </select>
    </div>
  );
}
