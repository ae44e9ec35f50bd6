/*
 * Shapes shared by every resource. Browser-safe: zod only. Clients send numbers as numbers or numeric
 * strings, flags as 0/1/true/false in either form, and PHP-style form arrays as objects keyed 0, 1, ...
 */
import { z } from 'zod';

const INT = /^-?\d+$/;

export const intLike = z
  .union([z.number().int(), z.string().trim().regex(INT, 'must be a whole number')], {
    error: 'must be a whole number',
  })
  .transform(Number);

export const idLike = intLike.pipe(z.number().int().positive({ error: 'must be a positive id' }));

/** An id where '0' and '' mean "none" (the contract's category_id '0' is "no folder"). */
export const optionalIdLike = z
  .union([z.literal(''), intLike])
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
  });

/** Text fields also accept numbers (a zip code sent as 12345). */
export const text = (max = 255) =>
  z
    .union([z.string(), z.number()], { error: 'must be text' })
    .transform((v) => String(v).trim())
    .pipe(z.string().max(max, { error: `must be at most ${max} characters` }));

/** Arrays that arrive as arrays, as form objects keyed '0', '1', ..., or as a single item. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (Array.isArray(v)) return v;
    if (typeof v === 'object' && Object.keys(v).every((k) => INT.test(k))) return Object.values(v);
    return [v];
  }, z.array(item).optional());

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
