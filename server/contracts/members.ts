import { z } from 'zod';
import { idLike, intLike, paging, query, text } from './common.js';

/** Our password policy is stricter than the contract's "more than 4 characters". */
export const PASSWORD_MIN_LENGTH = 8;

const password = z
  .string({ error: 'must be text' })
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(256, { error: 'must be at most 256 characters' });

const username = text(64).pipe(z.string().regex(/^[A-Za-z0-9._@+-]{3,64}$/, { error: 'must be 3 to 64 letters, digits or . _ @ + -' }));
const email = text(254).pipe(z.email({ error: 'must be an e-mail address' }));
const required = (schema: z.ZodType<string>) => schema.pipe(z.string().min(1, { error: 'must not be empty' }));

export const memberRoles = ['manager', 'member'] as const;

export const createMemberBody = z.object({
  username,
  password,
  first_name: required(text(100)),
  last_name: text(100).default(''),
  email,
  phone: text(40).optional(),
  billing_item_id: intLike.transform(String),
  billing_group_id: required(text(64)),
  subgroup_id: required(text(64)),
  /* Extensions: where the member sits in the team tree. */
  role: z.enum(memberRoles, { error: 'must be manager or member' }).default('member'),
  manager_id: idLike.optional(),
});
export type CreateMemberBody = z.input<typeof createMemberBody>;

export const updateMemberBody = z.object({
  first_name: required(text(100)).optional(),
  last_name: text(100).optional(),
  email_address: email.optional(),
  email: email.optional(),
  username: username.optional(),
  phone: text(40).optional(),
  /* Extensions, the vendor's only: where the member sits in the team tree. */
  manager_id: idLike.optional(),
  role: z.enum(memberRoles, { error: 'must be manager or member' }).optional(),
});

export const listMembersQuery = paging.extend({
  entire_team: query.flag,
  user_id: query.optionalId,
  /* Extension: each member's active contacts. */
  with_counts: query.flag,
  /* Extension: members removed since are listed too, each with its date_removed (their calls and figures stay). */
  include_removed: query.flag,
});

export const deleteMemberQuery = z.object({
  /* Extension: who takes the member's contacts (default: the member above it). */
  move_contacts_to: query.optionalId,
});

export const memberIdParam = z.object({ user_id: idLike });

/** Extension: a new password; the member's own change must give the current one (the vendor's change of another's need not). */
export const changePasswordBody = z.object({
  current_password: z.string({ error: 'must be text' }).max(256).optional(),
  password,
});
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

export const signInBody = z.object({
  username: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(256),
  password: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(256),
});
export type SignInBody = z.input<typeof signInBody>;

export type MemberRecord = {
  user_id: string;
  username: string;
  first_name: string;
  last_name: string;
  email_address: string;
  date_added: string;
  phone: string | null;
  display_name: string;
  billing_item_id: string;
  subscription_status: string;
  role: 'vendor' | (typeof memberRoles)[number];
  manager_id: string | null;
  contact_count?: number;
  date_removed?: string;
  oauth?: { bearer_token: string };
};
