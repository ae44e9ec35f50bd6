/*
 * Custom-field definitions (/rest/1/customfields) and a contact's values (/rest/1/contacts/{id}/customfields).
 * Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, intLike, listOf, paging, query, text } from './common.js';

export const CUSTOM_FIELD_TYPES = { 1: 'Text Field', 2: 'Check Box', 3: 'Date', 6: 'Drop Down', 7: 'Numeric' } as const;
export type CustomFieldType = keyof typeof CUSTOM_FIELD_TYPES;

const TYPE_ERROR = { error: 'must be 1 (text), 2 (checkbox), 3 (date) or 7 (numeric); drop-downs (6) are made by creating a contact' };
const definableType = intLike.pipe(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(7)], TYPE_ERROR));
const displayName = text(100).pipe(z.string().min(1, { error: 'must not be empty' }));
const ORDER_ERROR = { error: 'must be a whole number from 0 to 1000000' };
const displayOrder = intLike.pipe(z.number().int().min(0, ORDER_ERROR).max(1_000_000, ORDER_ERROR));

const CREATE_TYPE_ERROR = { error: 'must be 1 (text), 2 (checkbox), 3 (date), 6 (drop down) or 7 (numeric)' };
const creatableType = intLike.pipe(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(6), z.literal(7)], CREATE_TYPE_ERROR));

/** A drop-down's option: `{ id, label }` renames the option `id` (kept as it is when the label is the same); a label alone adds one. */
const optionEntry = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? { label: v } : v),
  z.object(
    { id: idLike.optional(), label: text(100).pipe(z.string().min(1, { error: 'must not be empty' })) },
    { error: 'must be a label or { id, label }' },
  ),
);
export const MAX_OPTIONS = 200;
/** Extension: a drop-down's whole list of options, in order; options left out are removed. */
const optionList = listOf(optionEntry).pipe(
  z
    .array(z.custom<{ id?: number; label: string }>())
    .max(MAX_OPTIONS, { error: `must list at most ${MAX_OPTIONS} options` })
    .refine((list) => new Set(list.map((o) => o.label.toLowerCase())).size === list.length, {
      error: 'must not list one label twice (labels that differ only in capitals count as the same)',
    })
    .refine((list) => new Set(list.flatMap((o) => (o.id ? [o.id] : []))).size === list.filter((o) => o.id).length, {
      error: 'must not name one option twice',
    })
    .optional(),
);
export type OptionEntry = { id?: number; label: string };

/** `display_order` left out puts the field last. Extension: type 6 (drop down) with its `options` (labels). */
/** A new definition's fields (the web app's form picks from them; refinements would forbid that). */
export const newFieldFields = z.object({
  display_name: displayName,
  display_order: displayOrder.optional(),
  type: creatableType,
  options: optionList,
});
export const createFieldBody = newFieldFields.superRefine((body, ctx) => {
  if (body.options?.length && body.type !== 6)
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'are only for a drop-down field (type 6)' });
});
export const updateFieldBody = z.object({
  display_name: displayName.optional(),
  display_order: displayOrder.optional(),
  type: definableType.optional(),
  options: optionList,
});
export type UpdateFieldBody = z.output<typeof updateFieldBody>;

export const fieldIdParam = z.object({ custom_field_id: idLike });

/** Extension: `with_counts=1` adds `contact_count` and, for drop-downs, `options` (for the admin screen). */
export const listFieldsQuery = paging.extend({ with_counts: query.flag });

/** A definition as the contract's shapes write records: every scalar a string. */
export type CustomFieldRecord = {
  custom_field_id: string;
  display_name: string;
  type_id: string;
  type_name: string;
  display_order: string;
  _link: { self: { href: string } };
  contact_count?: number;
  options?: { id: string; label: string }[];
};

/** On a contact: the definition with this contact's value (null when it has none). */
export type ContactCustomFieldValueRecord = CustomFieldRecord & { value: string | null };
