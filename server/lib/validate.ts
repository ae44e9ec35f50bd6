import type { z } from 'zod';
import { badRequest, Codes, type DebugCode } from './errors.js';

const fieldName = (path: PropertyKey[]) => path.map(String).join('.') || 'body';

const valueAt = (input: unknown, path: PropertyKey[]) =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);

/* "Missing" is read off the input, not the message: schemas with their own messages would hide it. */
function describe(issue: z.core.$ZodIssue, input: unknown): DebugCode {
  const field = fieldName(issue.path);
  if (issue.path.length > 0 && valueAt(input, issue.path) === undefined && issue.code !== 'custom') {
    return { code: Codes.missingField, field, reason: `${field} is required.` };
  }
  const detail = issue.message.replace(/^Invalid input: /, '');
  // A rule over several fields ("one of these is required") says what is missing in its own words.
  const missing = issue.code === 'custom' && (issue.params as { missing?: boolean } | undefined)?.missing;
  return { code: missing ? Codes.missingField : Codes.invalidField, field, reason: `${field} ${detail.charAt(0).toLowerCase()}${detail.slice(1)}.`.replace(/\.\.$/, '.') };
}

/** Parses input with a contract schema; every bad field becomes its own 400 debug code. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const seen = new Set<string>();
  const codes = result.error.issues
    .map((issue) => describe(issue, input ?? {}))
    .filter((d) => !seen.has(d.field ?? '') && seen.add(d.field ?? ''));
  throw badRequest(codes);
}
