/*
 * Request shapes of /rest/1/contacts, shared by the server and the web app's forms. Browser-safe: zod only.
 */
import { z } from 'zod';
import { cleanText, flagLike, idLike, intLike, listOf, optionalIdLike, paging, query, text } from './common.js';
import { parseConsentDate } from './dates.js';

export const PHONE_TYPES = { 1: 'HOME', 2: 'WORK', 3: 'CELL', 4: 'FAX', 5: 'OTHER' } as const;

/** Digits of a phone number; a leading US country code 1 on 11 digits is dropped. */
export function phoneDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

export const phoneNumber = text(40).refine((v) => v === '' || /^\d{7,15}$/.test(phoneDigits(v)), {
  error: 'must be a phone number of 7 to 15 digits',
});

export const emailAddress = text(254).refine((v) => v === '' || z.email().safeParse(v).success, {
  error: 'must be an e-mail address',
});

const PHONE_TYPE_ERROR = { error: 'must be 1 (home), 2 (work), 3 (cell), 4 (fax) or 5 (other)' };
export const phoneType = intLike.pipe(z.number().int().min(1, PHONE_TYPE_ERROR).max(5, PHONE_TYPE_ERROR));

/* '' clears a rating; null is "not given" like on every optional field (server/lib/validate.ts). */
const rating = z
  .union([z.literal(''), intLike], { error: 'must be a whole number from 1 to 5' })
  .transform((v) => (v === '' ? null : v))
  .pipe(
    z
      .number({ error: 'must be a whole number from 1 to 5' })
      .int({ error: 'must be a whole number from 1 to 5' })
      .min(1, { error: 'must be a whole number from 1 to 5' })
      .max(5, { error: 'must be a whole number from 1 to 5' })
      .nullable(),
  );

const customFieldValue = z.object({
  name: text(100).pipe(z.string().min(1, { error: 'must name the custom field' })),
  type: intLike
    .pipe(
      z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(6), z.literal(7)], {
        error: 'must be 1 (text), 2 (checkbox), 3 (date), 6 (drop down) or 7 (numeric)',
      }),
    )
    .default(1),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.null()], { error: 'must be text, a number, 1 or 0, or empty' })
    .transform((v) => (v === null ? null : String(v).trim()))
    .pipe(cleanText(z.string()).nullable())
    .default(null),
});

/** Fields that both create and update accept. */
export const contactFields = z.object({
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  email: emailAddress.optional(),
  phone: phoneNumber.optional(),
  phone_type: phoneType.optional(),
  phone_label: text(60).optional(),
  additional_name: listOf(z.object({ first_name: text(100).default(''), last_name: text(100).default('') })),
  additional_phone: listOf(
    z.object({
      number: phoneNumber.pipe(z.string().min(1, { error: 'is required' })),
      phone_type: phoneType.default(5),
      phone_label: text(60).default(''),
    }),
  ),
  address1: text().optional(),
  address2: text().optional(),
  city: text(100).optional(),
  state: text(60).optional(),
  state_other: text(100).optional(),
  zip: text(20).optional(),
  country: text(100).optional(),
  ad_code: text(100).optional(),
  notes: text(20000).optional(),
  /* Never an error: a blank, unparseable or future date is ignored (the contract's rule). */
  consent_date: z
    .unknown()
    .transform((v) => parseConsentDate(v, new Date()))
    .optional(),
  viewed: flagLike.optional(),
  category_id: optionalIdLike.optional(),
  tags: listOf(text(100).pipe(z.string().min(1, { error: 'must not be empty' }))),
  question: listOf(text(1000)),
  answer: listOf(text(5000)),
  custom_fields: listOf(customFieldValue),
  social_accounts: listOf(
    z.object({
      type: intLike.pipe(z.number().int().min(1).max(13, { error: 'must be a social account type from 1 to 13' })),
      account: text().pipe(z.string().min(1, { error: 'is required' })),
    }),
  ),
  token: text().optional(),
  return_lead_token: text().optional(),
  lead_id: text(100).optional(),
  order_number: text(100).optional(),
  lead_vendor_product_name: text().optional(),
  rating: rating.optional(),
  /* Extensions (docs/api.md): the do-not-call flag, and the time zone that sets the contact's calling hours in a dial session. */
  do_not_call: flagLike.optional(),
  time_zone: text(64).optional(),
});

const pairedAnswers = (body: { question?: string[]; answer?: string[] }, ctx: z.RefinementCtx) => {
  const q = body.question?.length ?? 0;
  const a = body.answer?.length ?? 0;
  if (q !== a) {
    ctx.addIssue({
      code: 'custom',
      path: [q > a ? 'answer' : 'question'],
      message: `must have one entry per ${q > a ? 'question' : 'answer'} (got ${q} questions and ${a} answers)`,
    });
  }
};

/** A new contact must be someone: named, or reachable. An empty body would store a blank record. */
const identifiable = (body: { first_name?: string; last_name?: string; email?: string; phone?: string }, ctx: z.RefinementCtx) => {
  if ([body.first_name, body.last_name, body.email, body.phone].some(Boolean)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['first_name'],
    params: { missing: true },
    message: 'is required, or else a last name, an e-mail address or a phone number: a contact needs something that identifies it',
  });
};

export const createContactBody = contactFields
  .extend({
    owner_id: idLike.optional(),
    owner_username: text(64).optional(),
    source_id: idLike.optional(),
    duplicate_checks: z.object({ email: flagLike.default(true), phone: flagLike.default(true) }).default({ email: true, phone: true }),
    on_duplicate: z.enum(['skip', 'update'], { error: "must be 'skip' or 'update'" }).default('update'),
    duplicate_scrubbing_policy: intLike
      .pipe(z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0, 1 or 2' }))
      .default(0),
    allow_duplicates: flagLike.default(false),
    /* Import configuration; the contract does not say what its keys mean, so it is accepted and not acted on. */
    config: z.unknown().optional(),
  })
  .superRefine(pairedAnswers)
  .superRefine(identifiable);
export type CreateContactBody = z.output<typeof createContactBody>;

export const updateContactBody = contactFields
  .extend({
    transfer_to_user_id: idLike.optional(),
    custom_fields: listOf(
      customFieldValue.extend({
        type: intLike
          .pipe(
            z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(7)], {
              error: 'must be 1 (text), 2 (checkbox), 3 (date) or 7 (numeric)',
            }),
          )
          .default(1),
      }),
    ),
  })
  .superRefine(pairedAnswers);
export type UpdateContactBody = z.output<typeof updateContactBody>;

const dateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const timestampParam = query.value(z.string().trim().regex(dateTime, { error: 'must be a date-time YYYY-MM-DD HH:MM:SS' }).optional());
const dateOrTimestampParam = (endOfDay: boolean) =>
  query.value(
    z
      .string()
      .trim()
      .refine((v) => dateTime.test(v) || dateOnly.test(v), { error: 'must be a date YYYY-MM-DD or a date-time YYYY-MM-DD HH:MM:SS' })
      .transform((v) => (dateOnly.test(v) ? `${v} ${endOfDay ? '23:59:59' : '00:00:00'}` : v))
      .optional(),
  );

export const CONTACT_SORT_COLUMNS = ['date_added', 'date_modified', 'first_name', 'last_name', 'email', 'rating', 'owner'] as const;
export type ContactSortColumn = (typeof CONTACT_SORT_COLUMNS)[number];

export const listContactsQuery = paging
  .extend({
    category_id: query.optionalId,
    folder_id: query.optionalId,
    updated_from: timestampParam,
    update_to: timestampParam,
    created_from: dateOrTimestampParam(false),
    created_to: dateOrTimestampParam(true),
    include_new: query.flag,
    email_address: query.value(cleanText(z.string().trim().max(254)).optional()),
    include_trashed: query.flag,
    include_archived: query.flag,
    sort_order: query.value(
      z
        .string()
        .trim()
        .toUpperCase()
        .pipe(z.enum(['ASC', 'DESC'], { error: "must be 'ASC' or 'DESC'" }))
        .default('DESC'),
    ),
    /* Extensions (documented in docs/api.md): text search, sort column, tag filter. */
    search: query.value(cleanText(z.string().trim().max(100, { error: 'must be at most 100 characters' })).optional()),
    sort_by: query.value(
      z.enum(CONTACT_SORT_COLUMNS, { error: `must be one of ${CONTACT_SORT_COLUMNS.join(', ')}` }).default('date_added'),
    ),
    tag_id: query.value(idLike.optional()),
    only_trashed: query.flag,
    owner_id: query.value(idLike.optional()),
    /* Extension: only the contacts in no folder ("Not in a folder"). */
    no_folder: query.flag,
  })
  .superRefine((q, ctx) => {
    if (q.no_folder && (q.category_id || q.folder_id)) {
      ctx.addIssue({ code: 'custom', path: ['no_folder'], message: 'cannot be combined with a folder (category_id or folder_id)' });
    }
    if (q.include_new && !q.updated_from) {
      ctx.addIssue({
        code: 'custom',
        path: ['include_new'],
        message: 'needs updated_from: it widens an updated_from search to created contacts',
      });
    }
  });
export type ListContactsQuery = z.output<typeof listContactsQuery>;

export const contactIdParam = z.object({ contact_id: idLike });

export const deleteContactsQuery = z.object({ permanent: query.flag });
export const deleteContactsBody = z.object({
  contact_user_ids: listOf(idLike).pipe(
    z
      .array(z.number(), { error: 'must be a list of contact ids' })
      .min(1, { error: 'must list at least one contact id' })
      .max(1000, { error: 'must list at most 1000 contact ids' }),
  ),
});

export const activitiesQuery = paging.extend({
  days: query.value(
    intLike.pipe(z.number().int().min(1, { error: 'must be from 1 to 183' }).max(183, { error: 'must be from 1 to 183 (six months)' })),
  ),
});

/** Extension: a contacts list's filters as one object, for work on a whole filtered view (dial all, bulk changes). */
export const contactFilter = z.object(
  {
    category_id: optionalIdLike.optional(),
    folder_id: optionalIdLike.optional(),
    tag_id: idLike.optional(),
    owner_id: idLike.optional(),
    search: cleanText(z.string().trim().max(100, { error: 'must be at most 100 characters' })).optional(),
    only_trashed: flagLike.optional(),
    no_folder: flagLike.optional(),
    /* The order to take them in: a session dials the grid's rows in the order the grid shows them. */
    sort_by: z.enum(CONTACT_SORT_COLUMNS, { error: `must be one of ${CONTACT_SORT_COLUMNS.join(', ')}` }).optional(),
    sort_order: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(['ASC', 'DESC'], { error: "must be 'ASC' or 'DESC'" }))
      .optional(),
  },
  { error: 'must be an object of filters (category_id, tag_id, owner_id, search, no_folder, sort_by, sort_order)' },
);
export type ContactFilter = z.output<typeof contactFilter>;

/** The list query a filter stands for, in its order (newest first, as the grid shows it by default). */
export function listQueryOf(filter: ContactFilter, pageSize: number): ListContactsQuery {
  const sortBy = filter.sort_by ?? 'date_added';
  return {
    page: 1,
    page_size: pageSize,
    category_id: filter.category_id ?? undefined,
    folder_id: filter.folder_id ?? undefined,
    tag_id: filter.tag_id,
    owner_id: filter.owner_id,
    search: filter.search,
    only_trashed: filter.only_trashed ?? false,
    include_new: false,
    include_trashed: false,
    include_archived: false,
    no_folder: filter.no_folder ?? false,
    sort_by: sortBy,
    sort_order: filter.sort_order ?? (['date_added', 'date_modified', 'rating'].includes(sortBy) ? 'DESC' : 'ASC'),
  };
}

/** Extension: the caller's contacts that share an e-mail address or phone number with a contact about to be created. */
export const matchesQuery = z.object({
  email: query.value(cleanText(z.string().trim().max(254)).optional()),
  phone: query.value(cleanText(z.string().trim().max(40)).optional()),
});

/** Extension: the most contacts a selection export (POST /rest/1/contacts/export) names. */
export const EXPORT_SELECTION_MAX = 50_000;

/** Extension: a selection to export, by id; ids that are unknown or out of the caller's scope are left out. */
export const exportSelectionBody = z.object({
  contact_ids: listOf(idLike).pipe(
    z
      .array(z.number(), { error: 'must be a list of contact ids' })
      .min(1, { error: 'must list at least one contact id' })
      .max(EXPORT_SELECTION_MAX, { error: `must list at most ${EXPORT_SELECTION_MAX} contact ids` }),
  ),
});
