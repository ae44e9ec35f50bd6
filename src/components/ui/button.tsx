import type { ButtonHTMLAttributes, Ref } from 'react';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'danger-ghost';
export type ButtonSize = 'sm' | 'md';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 active:bg-indigo-700 disabled:bg-indigo-300',
  secondary: 'bg-white text-zinc-800 shadow-sm ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 active:bg-zinc-100 disabled:text-zinc-400',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-500 active:bg-red-700 disabled:bg-red-300',
  ghost: 'text-zinc-700 hover:bg-zinc-100 active:bg-zinc-200 disabled:text-zinc-400',
  'danger-ghost': 'text-red-700 hover:bg-red-50 active:bg-red-100 disabled:text-red-300',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 px-2.5 text-sm',
  md: 'h-9 gap-2 px-3.5 text-sm',
};

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button (aria-busy) while an action runs. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

/** A button's look, for a link that acts as one (a way to another page). */
export const buttonClass = (variant: ButtonVariant = 'secondary', size: ButtonSize = 'md') =>
  `inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors ${variants[variant]} ${sizes[size]}`;

export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  className = '',
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`${buttonClass(variant, size)} disabled:cursor-not-allowed ${className}`}
      {...rest}
    >
      {busy && <Spinner className="size-4" />}
      {children}
    </button>
  );
}
