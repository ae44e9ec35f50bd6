import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../../lib/api-client';

/*
 * The one way server errors reach a form. Reasons name the wire field first ("email must be an e-mail address."), zod's
 * own messages in the browser do not ("must be an e-mail address"): both are shown under the field's visible label.
 */

export function labelled(label: string, message: string, wireField?: string): string {
  const trimmed = message.trim();
  const withStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
  if (wireField && trimmed.startsWith(`${wireField} `)) return withStop(`${label} ${trimmed.slice(wireField.length + 1)}`);
  if (/^[a-z]/.test(trimmed)) return withStop(`${label} ${trimmed}`);
  return trimmed;
}

export type FieldMap<T extends FieldValues> = Partial<Record<string, { name: Path<T>; label: string }>>;

type Options<T extends FieldValues> = {
  /** A 409 (a name taken) is shown under this field, as it is what must change. */
  conflictField?: { name: Path<T>; label: string };
};

/**
 * Each 400 debug code that names a field the form shows becomes that field's error (the first one focused); every
 * other reason comes back as text for the form's alert. A 401 gives nothing: the app is already going to sign-in.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: FieldMap<T>,
  options: Options<T> = {},
): string[] {
  if (!(error instanceof ApiError)) return [errorMessage(error)];
  if (error.status === 401) return [];
  if (error.status === 409 && options.conflictField) {
    setError(options.conflictField.name, { type: 'server', message: error.message }, { shouldFocus: true });
    return [];
  }
  const general: string[] = [];
  let focused = false;
  for (const code of error.debugCodes) {
    const wire = code.field;
    const target = wire ? (fields[wire] ?? fields[wire.split('.')[0] ?? '']) : undefined;
    if (target && wire) {
      setError(target.name, { type: 'server', message: labelled(target.label, code.reason, wire) }, { shouldFocus: !focused });
      focused = true;
    } else {
      general.push(code.reason);
    }
  }
  return general.length || focused ? general : [errorMessage(error)];
}

/** The form-level message: what was not done, and why. */
export function FormAlert({ title, messages }: { title: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-medium">{title}</p>
      {messages.length === 1 ? (
        <p className="mt-0.5">{messages[0]}</p>
      ) : (
        <ul className="mt-1 list-disc pl-5">
          {messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** An action's failure shown in place (not for 401: sign-in takes over). */
export function InlineError({ error }: { error: unknown }) {
  if (!error || (error instanceof ApiError && error.status === 401)) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {errorMessage(error)}
    </p>
  );
}
