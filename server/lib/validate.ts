import type { z } from 'zod';
import { badRequest, Codes, type DebugCode } from './errors.js';

const fieldName = (path: PropertyKey[]) => path.map(String).join('.') || 'body';

/*
 * "Missing" is read off the value the failing check saw (zod reports it with reportInput), not the message, which a
 * schema may have worded itself, nor the original body, which a schema may have reshaped first (`payload`, a lone
 * object for a list).
 */
function describe(issue: z.core.$ZodIssue): DebugCode {
  const field = fieldName(issue.path);
  if (issue.path.length > 0 && issue.code !== 'custom' && issue.input === undefined) {
    return { code: Codes.missingField, field, reason: `${field} is required.` };
  }
  const detail = issue.message.replace(/^Invalid input: /, '');
  // A rule over several fields ("one of these is required") says what is missing in its own words.
  const missing = issue.code === 'custom' && (issue.params as { missing?: boolean } | undefined)?.missing;
  return {
    code: missing ? Codes.missingField : Codes.invalidField,
    field,
    reason: `${field} ${detail.charAt(0).toLowerCase()}${detail.slice(1)}.`.replace(/\.\.$/, '.'),
  };
}

/** Parses input with a contract schema; every bad field becomes its own 400 debug code. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const seen = new Set<string>();
  const codes = result.error.issues.map((issue) => describe(issue)).filter((d) => !seen.has(d.field ?? '') && seen.add(d.field ?? ''));
  throw badRequest(codes);
}
