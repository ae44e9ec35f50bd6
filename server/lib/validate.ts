import type { z } from 'zod';
import { type FieldProblem, invalidFields } from './errors.js';

const fieldName = (path: PropertyKey[]) => path.map(String).join('.') || 'body';

/*
 * "Missing" is read off the value the failing check saw (zod reports it with reportInput), not the message, which a
 * schema may have worded itself, nor the original body, which a schema may have reshaped first (`payload`, a lone
 * object for a list).
 */
function describe(issue: z.core.$ZodIssue): FieldProblem {
  const field = fieldName(issue.path);
  if (issue.path.length > 0 && issue.code !== 'custom' && issue.input === undefined) {
    return { kind: 'missing', field, reason: `${field} is required.` };
  }
  const detail = issue.message.replace(/^Invalid input: /, '');
  // A rule over several fields ("one of these is required") says what is missing in its own words.
  const missing = issue.code === 'custom' && (issue.params as { missing?: boolean } | undefined)?.missing;
  return {
    kind: missing ? 'missing' : 'invalid',
    field,
    reason: `${field} ${detail.charAt(0).toLowerCase()}${detail.slice(1)}.`.replace(/\.\.$/, '.'),
  };
}

/** Parses input with a contract schema; every bad field is its own problem of the refusal (its own debug code). */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const seen = new Set<string>();
  const problems = result.error.issues.map((issue) => describe(issue)).filter((d) => !seen.has(d.field) && seen.add(d.field));
  throw invalidFields(problems);
}
