/*
 * Request shapes of a contact's sub-resources: e-mail addresses, phones, tags and custom-field values
 * (/rest/1/contacts/{contact_id}/...). Browser-safe: zod only.
 */
import { z } from 'zod';
import { flagLike, idLike, listOf, text } from './common.js';
import { contactIdParam, emailAddress, phoneDigits, phoneNumber, phoneType } from './contacts.js';
import { tagTitle } from './tags.js';

/** More than any person has; a replace-all list past it is a mistake, not a contact. */
export const MAX_LISTED = 100;

const address = emailAddress.pipe(z.string().min(1, { error: 'must be an e-mail address' }));
const digits = phoneNumber.pipe(z.string().min(1, { error: 'must be a phone number of 7 to 15 digits' })).transform(phoneDigits);
const label = text(60);
const listMax = (name: string) => ({ error: `must list at most ${MAX_LISTED} ${name}` });

export const emailIdParams = contactIdParam.extend({ email_id: idLike });
export const phoneIdParams = contactIdParam.extend({ phone_id: idLike });
export const contactTagParams = contactIdParam.extend({ tag_id: idLike });
export const contactFieldParams = contactIdParam.extend({ custom_field_id: idLike });

/** `is_primary` is required by the contract; left out, an address is not made primary (but a contact's first one is). */
export const addEmailBody = z.object({ email_address: address, is_primary: flagLike.default(false) });
/** Left out, `is_primary` stays as it is. */
export const changeEmailBody = z.object({ email_address: address, is_primary: flagLike.optional() });

/* The contract's parameter description names the key `email`, its example `email_address`: both are taken. */
const emailEntry = z.object({ email_address: address.optional(), email: address.optional(), is_primary: flagLike.default(false) });
export const replaceEmailsBody = z
  .object({
    emails: listOf(emailEntry, '{ email_address, is_primary }').pipe(
      z.array(z.custom<z.output<typeof emailEntry>>()).max(MAX_LISTED, listMax('addresses')),
    ),
  })
  .superRefine((body, ctx) =>
    body.emails.forEach((e, i) => {
      if (e.email_address === undefined && e.email === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['emails', i, 'email_address'],
          message: 'is required (or email)',
          params: { missing: true },
        });
      }
    }),
  )
  .transform((body) => body.emails.map((e) => ({ email_address: (e.email_address ?? e.email)!, is_primary: e.is_primary })));
export type EmailEntry = z.output<typeof replaceEmailsBody>[number];

export const addPhoneBody = z.object({
  phone_number: digits,
  type: phoneType.default(1),
  label: label.default(''),
  is_primary: flagLike.default(false),
});
/** Left out, `type`, `label` and `is_primary` stay as they are. */
export const changePhoneBody = z.object({
  phone_number: digits,
  type: phoneType.optional(),
  label: label.optional(),
  is_primary: flagLike.optional(),
});
const phoneEntry = z.object({
  phone_number: digits,
  is_primary: flagLike.default(false),
  type: phoneType.default(1),
  label: label.default(''),
});
export const replacePhonesBody = z.object({
  phones: listOf(phoneEntry).pipe(z.array(z.custom<z.output<typeof phoneEntry>>()).max(MAX_LISTED, listMax('phones'))),
});
export type PhoneEntry = z.output<typeof phoneEntry>;

export const contactTagBody = z.object({ title: tagTitle });

/** A value is text whatever its type; null or '' removes it, as in a contact update. */
export const customValueBody = z.object({
  value: z
    .union([z.string(), z.number(), z.boolean(), z.null()], { error: 'must be text, a number, or null to remove the value' })
    .transform((v) => (v === null ? null : String(v).trim())),
});

/** A phone as its sub-resource answers it: the number formatted, with its digits beside it. */
export type PhoneRecord = {
  id: number;
  type: number;
  type_name: string;
  phone_number: string;
  raw_phone: string;
  label: string;
  is_primary: boolean;
};
