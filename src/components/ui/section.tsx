import { useId, type ReactNode } from 'react';

/** A titled card; its heading names the region for assistive technology. */
export function Section({
  title,
  actions,
  children,
  className = '',
  id,
}: {
  title: string;
  /** An anchor other screens link to (/settings#tokens). */
  id?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className={`rounded-lg border border-zinc-200 bg-white shadow-sm ${className}`}>
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-100 px-4 py-3">
        <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
          {title}
        </h2>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </header>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}

/** The top of an admin screen: its h1, a sentence about it, and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-zinc-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
