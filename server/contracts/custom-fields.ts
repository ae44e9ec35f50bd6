/*
 * Custom-field definitions (/rest/1/customfields) and a contact's values (/rest/1/contacts/{id}/customfields).
 * Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, intLike, paging, query, text } from './common.js';

export const CUSTOM_FIELD_TYPES = { 1: 'Text Field', 2: 'Check Box', 3: 'Date', 6: 'Drop Down', 7: 'Numeric' } as const;
export type CustomFieldType = keyof typeof CUSTOM_FIELD_TYPES;

const TYPE_ERROR = { error: 'must be 1 (text), 2 (checkbox), 3 (date) or 7 (numeric); drop-downs (6) are made by creating a contact' };
const definableType = intLike.pipe(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(7)], TYPE_ERROR));
const displayName = text(100).pipe(z.string().min(1, { error: 'must not be empty' }));
const ORDER_ERROR = { error: 'must be a whole number from 0 to 1000000' };
const displayOrder = intLike.pipe(z.number().int().min(0, ORDER_ERROR).max(1_000_000, ORDER_ERROR));

/** `display_order` left out puts the field last. */
export const createFieldBody = z.object({ display_name: displayName, display_order: displayOrder.optional(), type: definableType });
export const updateFieldBody = z.object({
  display_name: displayName.optional(),
  display_order: displayOrder.optional(),
  type: definableType.optional(),
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
