/*
 * The records the API answers, as zod schemas the document is generated from. The records themselves are types
 * (contact-records.ts and the resources' contracts); each schema here is checked against its type at compile time,
 * so the two cannot drift apart.
 */
import { z } from 'zod';
import type { ErrorEnvelope, PageMeta } from '../common.js';
import type { PhoneRecord } from '../contact-details.js';
import type { AuditRecord, ContactActivityRecord, ContactRecord, CreatedContactRecord } from '../contact-records.js';
import type { CustomFieldRecord } from '../custom-fields.js';
import type { FolderRecord } from '../folders.js';
import type { MemberRecord } from '../members.js';
import type { TagRecord, WrittenTagRecord } from '../tags.js';

/** True only when A and B are the same type: `const _: Same<A, B> = true` fails to compile otherwise. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const s = z.string();
const flag = z.enum(['0', '1']).describe('"1" or "0"');
const strings = <const K extends string>(...keys: K[]) => z.object(Object.fromEntries(keys.map((k) => [k, s])) as Record<K, typeof s>);

/** The paging fields beside every list. */
export const pageMeta = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_results: z.number().int(),
  total_pages: z.number().int(),
});

/** Every refusal: the contract's error envelope. */
export const errorEnvelope = z.object({
  http_status: z.number().int(),
  status: z.literal('error'),
  debug_codes: z.array(
    z.object({
      code: z.number().int().describe('A stable code: 40002 a required field is missing, 40401 not found, … (docs/api.md).'),
      reason: s.describe('A sentence a person can act on.'),
      field: s.optional().describe('Extension: the bad field, by its wire name (custom_fields.0.value).'),
    }),
  ),
});

const contactPhone = z.object({
  id: z.number(),
  type: z.number(),
  type_name: s,
  phone_number: s,
  phone: s,
  label: s,
  is_primary: z.boolean(),
});
const contactEmail = z.object({ id: z.number(), email_address: s, is_primary: z.boolean() });
const contactTag = z.object({ id: z.number(), title: s });
const contactField = z.object({ custom_field_id: s, name: s, type: s, value: s.nullable() });

export const contactItem = strings(
  'contact_user_id',
  'user_id',
  'owner_id',
  'member_id',
  'contact_owner_id',
  'first_name',
  'last_name',
  'date_added',
  'date_modified',
  'original_ip',
  'unique_id',
  'ad_code',
  'language',
  'region',
  'time_zone',
  'location_name',
  'latitude',
  'longitude',
  'raw_zip',
  'raw_phone',
  'last_login',
  'total_logins',
  'points',
  'gender',
  'date_of_birth',
  'category_id',
  'site_id',
  'rating',
  'contacted',
  'consent_date',
  'lead_id',
  'total_calls',
  'last_call_time',
).extend({
  do_not_call: flag,
  call_result: s.nullable(),
  category: strings('category_id', 'name', 'description'),
  archived: flag,
  trashed: flag,
  removed: flag,
  viewed: flag,
  notes: z.object({ notes: s }),
  primary_email: strings(
    'email_address',
    'status',
    'soft_bounce_count',
    'hard_bounce_count',
    'is_primary',
    'double_opt_status',
    'double_opt_ip',
    'type',
  ),
  primary_phone: strings('phone', 'raw_phone', 'type', 'is_primary', 'label'),
  phones: z.array(contactPhone).nullable(),
  emails: z.array(contactEmail),
  primary_address: strings('address', 'address_2', 'city', 'state', 'state_other', 'zip', 'country', 'type', 'is_primary'),
  additional_names: z.array(strings('first_name', 'last_name')),
  questions: z.array(strings('question', 'answer')),
  social_accounts: z.array(strings('type', 'account')),
  tags: z.array(contactTag),
  custom_fields: z.array(contactField),
  external_crm_data: z.array(strings('crm_id', 'crm_name')),
});

export const createdContactItem = strings(
  'contact_user_id',
  'member_id',
  'contact_owner_id',
  'first_name',
  'last_name',
  'email_address',
  'phone',
  'phone_label',
  'date_added',
).extend({
  notes: s.nullable(),
  duplicate_action: z
    .enum(['created', 'updated', 'skipped'])
    .describe('Extension: a new contact, or an existing duplicate updated or left alone.'),
});

export const activityItem = strings('user_activity_id', 'activity_id', 'activity', 'date');
export const auditItem = strings('contact_id', 'member_id', 'action', 'data_type', 'old', 'new', 'date_added');
export const emailItem = contactEmail;
export const phoneItem = z.object({
  id: z.number(),
  type: z.number(),
  type_name: s,
  phone_number: s,
  raw_phone: s,
  label: s,
  is_primary: z.boolean(),
});
export const contactTagItem = contactTag;

export const customFieldItem = strings('custom_field_id', 'display_name', 'type_id', 'type_name', 'display_order').extend({
  _link: z.object({ self: z.object({ href: s }) }),
  contact_count: z.number().optional().describe('Extension: with with_counts=1.'),
  options: z.array(strings('id', 'label')).optional().describe('Extension: a drop-down’s options, with with_counts=1.'),
});
export const contactFieldValueItem = customFieldItem.extend({ value: s.nullable() });

export const tagItem = z.object({
  id: z.number(),
  title: s,
  contact_count: z.number().optional().describe('Extension: with with_counts=1.'),
});
export const writtenTagItem = z.object({ id: z.number(), tag: s });

export const folderItem = strings('folder_id', 'folder_name', 'description', 'parent_id').extend({
  contact_count: z.number().optional().describe('Extension: with with_counts=1.'),
});

/** Folders answer keyed by position ("0", "1", …) beside the paging fields, as the contract shows them. */
export const keyedFolders = z
  .object({ page: z.number(), page_size: z.number(), total_results: z.number(), total_pages: z.number() })
  .extend({ unfiled_count: z.number().optional().describe('Extension: with with_counts=1, the contacts in no folder.') })
  .catchall(folderItem);

export const memberItem = strings(
  'user_id',
  'username',
  'first_name',
  'last_name',
  'email_address',
  'date_added',
  'display_name',
  'billing_item_id',
  'subscription_status',
).extend({
  phone: s.nullable(),
  role: z.enum(['vendor', 'manager', 'member']).describe('Extension.'),
  manager_id: s.nullable().describe('Extension.'),
  contact_count: z.number().optional().describe('Extension: with with_counts=1.'),
  date_removed: s.optional().describe('Extension: with include_removed=1, when the member was removed (its calls and figures stay).'),
  oauth: z
    .object({ bearer_token: s })
    .optional()
    .describe('Only to a bearer-token caller, for the members of its team; never to the web app.'),
});

/* Each schema is the type it describes. */
export const typeChecks: [
  Same<z.output<typeof pageMeta>, PageMeta>,
  Same<z.output<typeof errorEnvelope>, ErrorEnvelope>,
  Same<z.output<typeof contactItem>, ContactRecord>,
  Same<z.output<typeof createdContactItem>, CreatedContactRecord>,
  Same<z.output<typeof activityItem>, ContactActivityRecord>,
  Same<z.output<typeof auditItem>, AuditRecord>,
  Same<z.output<typeof phoneItem>, PhoneRecord>,
  Same<z.output<typeof customFieldItem>, CustomFieldRecord>,
  Same<z.output<typeof tagItem>, TagRecord>,
  Same<z.output<typeof writtenTagItem>, WrittenTagRecord>,
  Same<z.output<typeof folderItem>, FolderRecord>,
  Same<z.output<typeof memberItem>, MemberRecord>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
