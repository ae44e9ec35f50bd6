/*
 * The message library (GET /rest/1/content, and the extension routes POST /rest/1/content, PUT and DELETE
 * /rest/1/content/{message_id}) and the merge fields a message's subject and body may hold. Browser-safe: zod only.
 */
import { z } from 'zod';
import { idLike, text } from './common.js';

/** What `{name}` in a subject or body becomes when the e-mail is queued (docs/api.md, "Disposition e-mails"). */
export const MERGE_FIELDS = {
  first_name: "the contact's first name",
  last_name: "the contact's last name",
  email: "the contact's e-mail address",
  phone: "the contact's phone number",
  member_first_name: 'your first name',
  member_last_name: 'your last name',
  member_email: 'your e-mail address',
  member_phone: 'your phone number',
} as const;

export type MergeField = keyof typeof MERGE_FIELDS;

export const MESSAGE_LIMITS = { name: 100, description: 300, subject: 200, body: 10_000 } as const;

const FIELD = /\{([^{}]*)\}/g;

/** The `{...}` of a text that name no merge field, each once, as written. */
export function unknownMergeFields(value: string): string[] {
  const unknown = [...value.matchAll(FIELD)].map((m) => m[1]!).filter((name) => !Object.hasOwn(MERGE_FIELDS, name.trim()));
  return [...new Set(unknown)];
}

/** The text with each merge field replaced by its value ('' when the value is empty). */
export function mergeFields(value: string, values: Record<MergeField, string>): string {
  return value.replace(FIELD, (whole, name: string) =>
    Object.hasOwn(MERGE_FIELDS, name.trim()) ? values[name.trim() as MergeField] : whole,
  );
}

const merged = (max: number) =>
  text(max)
    .pipe(z.string().min(1, { error: 'must not be empty' }))
    .superRefine((value, ctx) => {
      const unknown = unknownMergeFields(value);
      if (unknown.length)
        ctx.addIssue({
          code: 'custom',
          message: `names merge fields we do not know: ${unknown.map((f) => `{${f}}`).join(', ')} (known: ${Object.keys(MERGE_FIELDS)
            .map((f) => `{${f}}`)
            .join(', ')})`,
        });
    });

/** `null` is "not given" (compat-notes); `name` is taken for `display_name` when that is not given. */
const given = (v: unknown) => (v === null ? undefined : v);
const normalised = (v: unknown) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const body = Object.fromEntries(Object.entries(v).map(([k, value]) => [k, given(value)]));
  const { name, ...rest } = body as Record<string, unknown>;
  return rest.display_name === undefined && name !== undefined ? { ...rest, display_name: name } : rest;
};

const fields = {
  display_name: text(MESSAGE_LIMITS.name).pipe(z.string().min(1, { error: 'must not be empty' })),
  description: text(MESSAGE_LIMITS.description),
  subject: merged(MESSAGE_LIMITS.subject),
  body: merged(MESSAGE_LIMITS.body),
};

/** A whole message, as the web app's form checks it before sending. */
export const messageFields = z.object({ ...fields, description: fields.description.default('') });
export const createMessageBody = z.preprocess(normalised, messageFields);
export const updateMessageBody = z.preprocess(normalised, z.object(fields).partial());
export type MessageInput = z.output<typeof createMessageBody>;
export type MessageChanges = z.output<typeof updateMessageBody>;

export const messageIdParam = z.object({ message_id: idLike });

/** A message as GET /rest/1/content lists it: the contract's fields, then extensions (docs/api.md). */
export type ContentRecord = {
  cm_content_id: string;
  display_name: string;
  description: string;
  message_id: string;
  display_order: string;
  system_message: 0 | 1;
  /** Extensions. */
  type: string;
  subject: string;
  body: string;
  member_id: string | null;
  can_edit: '0' | '1';
};
