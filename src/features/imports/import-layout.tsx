import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/section';
import { ImportSteps, type Step } from './import-steps';

const linkClass = 'text-sm font-medium text-indigo-700 underline';

/** The frame of every import page: its heading, the way back to contacts, and the step it is at. */
export function ImportLayout({ title, step, children }: { title: string; step: Step | null; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Ringbook`;
  }, [title]);
  return (
    <div className="mx-auto w-full max-w-6xl space-y-4 px-4 py-5 sm:px-6">
      <p>
        <Link to="/contacts" className={linkClass}>
          ← Contacts
        </Link>
      </p>
      <PageHeader title={title} description="Bring contacts in from a CSV file: upload it, map its columns, preview, then run." />
      {step && <ImportSteps current={step} />}
      {children}
    </div>
  );
}
