import { Button } from './button';

export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
  retrying = false,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <div role="alert" className="mx-auto my-10 max-w-md rounded-lg border border-red-200 bg-red-50 px-5 py-4 text-center">
      <h2 className="text-sm font-semibold text-red-800">{title}</h2>
      <p className="mt-1 text-sm text-red-700">{message}</p>
      {onRetry && (
        <Button className="mt-3" size="sm" onClick={onRetry} busy={retrying}>
          Retry
        </Button>
      )}
    </div>
  );
}
