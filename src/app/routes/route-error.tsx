import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Last resort when rendering a route throws: say so, and offer a way back. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'An unexpected error occurred.';
  return (
    <main className="mx-auto max-w-md px-6 py-24 text-center">
      <h1 className="text-xl font-semibold text-zinc-900">Something went wrong</h1>
      <p role="alert" className="mt-2 text-sm text-zinc-600">
        {message}
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="inline-flex h-9 items-center rounded-md bg-white px-3.5 text-sm font-medium text-zinc-800 shadow-sm ring-1 ring-zinc-300 hover:bg-zinc-50"
        >
          Reload the page
        </button>
        <Link
          to="/contacts"
          className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
        >
          Go to contacts
        </Link>
      </div>
    </main>
  );
}
