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

/** Parsed query strings kept per schema; past this many, the map starts again (a client's queries repeat: pages, filters). */
const PARSED_QUERIES_KEPT = 1_000;
const parsedQueries = new WeakMap<z.ZodType, Map<string, unknown>>();

/**
 * `parse` of a request's query string, kept by the string itself: a query schema's output depends on nothing else (no
 * clock, no store), so the same string parses to the same value, and a list read page after page parses it once. The
 * value is frozen, as every request that asks the same string shares it. A refused string is not kept.
 */
export function parseQuery<S extends z.ZodType>(schema: S, req: { url: string; query: unknown }): Readonly<z.output<S>> {
  const at = req.url.indexOf('?');
  const raw = at === -1 ? '' : req.url.slice(at + 1);
  let kept = parsedQueries.get(schema);
  if (!kept) parsedQueries.set(schema, (kept = new Map()));
  const known = kept.get(raw);
  if (known !== undefined) return known as z.output<S>;
  const value = deepFreeze(parse(schema, req.query));
  if (kept.size >= PARSED_QUERIES_KEPT) kept.clear();
  kept.set(raw, value);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
