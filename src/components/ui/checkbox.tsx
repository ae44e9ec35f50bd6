import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> & {
  /** Visible label; omit and pass aria-label for a bare checkbox (grid rows). */
  label?: ReactNode;
  hint?: ReactNode;
  indeterminate?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
};

const box =
  'size-4 shrink-0 cursor-pointer rounded border-zinc-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

export function Checkbox({ label, hint, indeterminate = false, className = '', ref, ...input }: CheckboxProps) {
  const id = useId();
  const setRef = (el: HTMLInputElement | null) => {
    if (el) el.indeterminate = indeterminate;
    if (typeof ref === 'function') ref(el);
    else if (ref) ref.current = el;
  };
  if (!label) return <input type="checkbox" ref={setRef} className={`${box} ${className}`} {...input} />;
  return (
    <div className={`flex items-start gap-2 ${className}`}>
      <input
        id={id}
        type="checkbox"
        ref={setRef}
        className={`${box} mt-0.5`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
      />
      <div className="text-sm">
        <label htmlFor={id} className="cursor-pointer font-medium text-zinc-700">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-zinc-500">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
