import { useEffect } from 'react';
import { Link } from 'react-router';

export function NotFoundRoute() {
  useEffect(() => {
    document.title = 'Page not found · Ringbook';
  }, []);
  return (
    <div className="mx-auto max-w-md px-6 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-2 text-sm text-zinc-600">The page you asked for does not exist or has moved.</p>
      <Link
        to="/contacts"
        className="mt-6 inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
      >
        Go to contacts
      </Link>
    </div>
  );
}
