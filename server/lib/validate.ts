import type { z } from 'zod';
import { type FieldProblem, invalidFields } from './errors.js';

const fieldName = (path: PropertyKey[]) => path.map(String).join('.') || 'body';

/*
 * "Missing" is read off the value the failing check saw (zod reports it with reportInput), not the message, which a
 * schema may have worded itself, nor the original body, which a schema may have reshaped first (`payload`, a lone
 * object for a list).
 */
function describe(issue: z.core.$ZodIssue, nulled: ReadonlySet<string>): FieldProblem {
  const field = fieldName(issue.path);
  if (issue.path.length > 0 && issue.code !== 'custom' && issue.input === undefined) {
    const why = nulled.has(field) ? ' (null counts as not given)' : '';
    return { kind: 'missing', field, reason: `${field} is required${why}.` };
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `input` without the object keys at `paths` (a key inside an array is left: an item is not optional). */
function withoutKeys(input: unknown, paths: readonly PropertyKey[][]): unknown {
  const copy = structuredClone(input);
  for (const path of paths) {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (isRecord(node) || Array.isArray(node) ? (node as never)[key] : undefined), copy);
    if (isRecord(parent)) delete parent[String(path.at(-1))];
  }
  return copy;
}

/*
 * `null` on an input means "not given" (clients that send every key they know send null for the ones they have no
 * value for): a key whose schema refuses null is read as absent, so an optional one is simply left out and a
 * required one is reported as missing. A schema that gives null a meaning of its own (a custom field's value, where
 * null removes it) still receives it: only the keys the first pass refused because they were null are dropped.
 */
function nullsRefused(issues: readonly z.core.$ZodIssue[]): PropertyKey[][] {
  return issues.filter((i) => i.code !== 'custom' && i.input === null && i.path.length > 0).map((i) => i.path);
}

/** An object's keys holding null left out (null is "not given"): for a shape told apart by its keys before it is parsed. */
export const withoutNulls = (value: unknown): unknown =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value;

/** Parses input with a contract schema; every bad field is its own problem of the refusal (its own debug code). */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  let body: unknown = input ?? {};
  let result = schema.safeParse(body, { reportInput: true });
  const nulled = new Set<string>();
  // Each pass drops the keys refused as null; a key inside a dropped one can only show up on a later pass.
  for (let pass = 0; !result.success && pass < 5; pass++) {
    const paths = nullsRefused(result.error.issues).filter((p) => !nulled.has(fieldName(p)));
    if (paths.length === 0) break;
    paths.forEach((p) => nulled.add(fieldName(p)));
    body = withoutKeys(body, paths);
    result = schema.safeParse(body, { reportInput: true });
  }
  if (result.success) return result.data;
  const seen = new Set<string>();
  const problems = result.error.issues.map((issue) => describe(issue, nulled)).filter((d) => !seen.has(d.field) && seen.add(d.field));
  throw invalidFields(problems);
}
