import { Button, type ButtonProps } from '../../components/ui/button';

type Props = Omit<ButtonProps, 'children' | 'aria-label'> & { label: string; shortcut?: string | null | undefined };

/**
 * A button whose accessible name is exactly its label; its keyboard shortcut is shown with <kbd> and announced
 * through aria-keyshortcuts rather than read as part of the name.
 */
export function ShortcutButton({ label, shortcut, ...props }: Props) {
  const key = shortcut ? shortcut.toUpperCase() : undefined;
  return (
    <Button aria-label={label} aria-keyshortcuts={key} {...props}>
      <span>{label}</span>
      {key && (
        <kbd aria-hidden="true" className="rounded border border-current/30 px-1 font-mono text-[0.7rem] leading-4 opacity-70">
          {key}
        </kbd>
      )}
    </Button>
  );
}
