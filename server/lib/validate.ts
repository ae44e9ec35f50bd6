import type { z } from 'zod';
import { badRequest, Codes, type DebugCode } from './errors.js';

const fieldName = (path: PropertyKey[]) => path.map(String).join('.') || 'body';

function describe(issue: z.core.$ZodIssue): DebugCode {
  const field = fieldName(issue.path);
  const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
  if (missing) return { code: Codes.missingField, field, reason: `${field} is required.` };
  const detail = issue.message.replace(/^Invalid input: /, '');
  return { code: Codes.invalidField, field, reason: `${field} ${detail.charAt(0).toLowerCase()}${detail.slice(1)}.`.replace(/\.\.$/, '.') };
}

/** Parses input with a contract schema; every bad field becomes its own 400 debug code. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const seen = new Set<string>();
  const codes = result.error.issues.map(describe).filter((d) => !seen.has(d.field ?? '') && seen.add(d.field ?? ''));
  throw badRequest(codes);
}
