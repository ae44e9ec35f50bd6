/*
 * Shapes shared by every resource. Browser-safe: zod only. Clients send numbers as numbers or numeric
 * strings, flags as 0/1/true/false in either form, and PHP-style form arrays as objects keyed 0, 1, ...
 */
import { z } from 'zod';
import { ourWords } from './messages.js';

z.config({ customError: ourWords });

const INT = /^-?\d+$/;
/** Up to 15 digits: every such number is exact in JavaScript (Number.MAX_SAFE_INTEGER has 16). */
const SAFE_INT = /^-?\d{1,15}$/;
const WHOLE = 'must be a whole number of at most 15 digits';

export const intLike = z
  .union(
    [z.number().int({ error: WHOLE }).refine(Number.isSafeInteger, { error: WHOLE }), z.string().trim().regex(SAFE_INT, { error: WHOLE })],
    {
      error: WHOLE,
    },
  )
  .transform(Number);

export const idLike = intLike.pipe(z.number().int().positive({ error: 'must be a positive id' }));

/** An id where '0' and '' mean "none" (the contract's category_id '0' is "no folder"). */
export const optionalIdLike = z
  .union([z.literal(''), intLike], { error: 'must be an id (a whole number), or 0 for none' })
  .transform((v) => (v === '' || v === 0 ? null : v))
  .pipe(z.number().int().positive({ error: 'must be a positive id' }).nullable());

export const flagLike = z
  .union([z.boolean(), z.number(), z.string().trim()], { error: 'must be 1 or 0' })
  .transform((v, ctx) => {
    const s = String(v).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1 or 0' });
    return z.NEVER;
  })
  .describe('A flag: 1 or 0 (true/false, yes/no and on/off too).');

/** Control characters other than tab, line feed and carriage return, C1 controls included. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Half of a surrogate pair with no other half: not a character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/*
 * Text is stored as given (trimmed), or refused: a lone UTF-16 surrogate would be stored as replacement characters
 * and control characters have no place in a name or a note, so neither is ever changed silently.
 */
export const cleanText = <S extends z.ZodType<string>>(schema: S) =>
  schema
    .refine((v) => !LONE_SURROGATE.test(v), { error: 'must be valid text (it holds half of a character: a lone surrogate)' })
    .refine((v) => !CONTROL.test(v), { error: 'must not contain control characters (only tabs and line breaks)' });

/** Text fields also accept numbers (a zip code sent as 12345). */
export const text = (max = 255) =>
  z
    .union([z.string(), z.number()], { error: 'must be text' })
    .transform((v) => String(v).trim())
    .pipe(cleanText(z.string().max(max, { error: `must be at most ${max} characters` })));

const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Arrays that arrive as arrays, as form objects keyed '0', '1', ..., or as a single item. A list of objects named
 * by a lone non-object (`custom_fields: "x"`) is a wrong type for the whole list, and said so: wrapping it would
 * report "custom_fields.0 is required", which names no mistake the client made.
 */
export const listOf = <T extends z.ZodType>(item: T, described?: string) => {
  const shape = described ?? (item instanceof z.ZodObject ? `{ ${Object.keys(item.shape).join(', ')} }` : undefined);
  return z.preprocess((v, ctx) => {
    if (v === undefined || v === null || v === '') return undefined;
    const list = Array.isArray(v)
      ? v
      : isRecord(v) && Object.keys(v as object).every((k) => INT.test(k))
        ? Object.values(v as object)
        : undefined;
    if (shape && !list && !isRecord(v)) {
      ctx.addIssue({ code: 'custom', message: `must be a list of ${shape}` });
      return z.NEVER;
    }
    if (shape && list) {
      list.forEach((entry, i) => isRecord(entry) || ctx.addIssue({ code: 'custom', path: [i], message: `must be ${shape}` }));
    }
    return list ?? [v];
  }, z.array(item).optional());
};

/** A query parameter given twice arrives as an array; the first value wins. */
export const firstValue = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const queryValue = <T extends z.ZodType>(schema: T) => z.preprocess(firstValue, schema);

export const paging = z.object({
  page: queryValue(intLike.pipe(z.number().int().min(1, { error: 'must be 1 or more' })).default(1)),
  page_size: queryValue(
    intLike.pipe(z.number().int().min(1, { error: 'must be from 1 to 100' }).max(100, { error: 'must be from 1 to 100' })).default(25),
  ),
});

export const query = {
  value: queryValue,
  flag: queryValue(flagLike.default(false)),
  optionalId: queryValue(optionalIdLike.optional()),
};

export type PageMeta = { page: number; page_size: number; total_results: number; total_pages: number };

export type ListOf<K extends string, T> = Record<K, T[]> & PageMeta;

export type ErrorEnvelope = {
  http_status: number;
  status: 'error';
  debug_codes: { code: number; reason: string; field?: string }[];
};
