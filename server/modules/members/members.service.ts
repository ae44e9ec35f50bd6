import type { z } from 'zod';
import { type AuthContext, requireVendor, scopeIncludesMember } from '../../auth/access.js';
import { findMemberById, findMemberByUsername, teamIds } from '../../auth/auth.repository.js';
import { hashPassword } from '../../auth/passwords.js';
import { issuePersonalToken, personalToken } from '../../auth/tokens.js';
import { newCallbackSecret } from '../../callbacks/signing.js';
import type { createMemberBody, listMembersQuery, updateMemberBody } from '../../contracts/members.js';
import type { Db } from '../../db/database.js';
import type { Member } from '../../db/schema.js';
import { conflict, forbidden, invalidField, notFound, unknownReference } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './members.repository.js';
import { insertStarterVoicemail } from '../dial-library/dial-library.repository.js';
import { deleteSsoKeysOf, unendedSessionIds } from '../dial-sessions/dial-sessions.repository.js';
import { afterCommit, type CarrierCommand, driveIn, type DialingDeps } from '../dial-sessions/dialing.service.js';
import { toMemberRecord } from '../../auth/member-record.js';

/** The store and the server key (personal tokens); removing a member ends its dial sessions, which takes the dialer's parts. */
export type MembersDeps = DialingDeps & { secretKey: Buffer };

/** Browsers never get a bearer token; integrations get the tokens of members in their own team. */
export function present(ctx: Pick<MembersDeps, 'secretKey'>, auth: AuthContext, member: Member) {
  const showToken = auth.via === 'bearer' && member.removed_at === null && scopeIncludesMember(auth.scope, member);
  return toMemberRecord(member, showToken ? personalToken(ctx.secretKey, member) : undefined);
}

export async function visibleMember(ctx: Pick<MembersDeps, 'store'>, auth: AuthContext, id: number): Promise<Member> {
  const member = await findMemberById(ctx.store.db, id);
  if (!member || !scopeIncludesMember(auth.scope, member)) throw notFound(`There is no member ${id} in your team.`);
  return member;
}

export async function listMembers(ctx: Pick<MembersDeps, 'store'>, auth: AuthContext, query: z.output<typeof listMembersQuery>) {
  const filter: repo.MemberFilter = { orgId: auth.member.org_id };
  if (auth.scope.kind === 'team') filter.ids = auth.scope.memberIds;
  if (!query.entire_team) filter.parentOrSelf = auth.member.id;
  if (query.include_removed) filter.includeRemoved = true;
  return repo.listMembers(ctx.store.db, filter, query);
}

async function assertUsernameFree(db: Db, username: string, exceptId?: number) {
  const existing = await findMemberByUsername(db, username);
  if (existing && existing.id !== exceptId) throw conflict(`The username "${username}" is taken. Choose another.`);
}

async function assertManager(db: Db, auth: AuthContext, managerId: number) {
  const manager = await findMemberById(db, managerId);
  if (!manager || manager.org_id !== auth.member.org_id)
    throw unknownReference('manager_id', `manager_id ${managerId} is not a member of your organisation.`);
  if (manager.role === 'member')
    throw invalidField('manager_id', `manager_id ${managerId} is not a manager; make that member a manager first.`);
  return manager;
}

export async function createMember(
  ctx: Pick<MembersDeps, 'store' | 'secretKey'>,
  auth: AuthContext,
  body: z.output<typeof createMemberBody>,
) {
  const managerId = body.manager_id ?? auth.member.id;
  await assertManager(ctx.store.db, auth, managerId);
  await assertUsernameFree(ctx.store.db, body.username);
  // Hashing takes a quarter of a second: it happens before the transaction, and the checks run again inside it.
  const passwordHash = await hashPassword(body.password);
  const at = now();
  return ctx.store.write(async (tx) => {
    const manager = await assertManager(tx, auth, managerId);
    await assertUsernameFree(tx, body.username);
    const member = await repo.insertMember(tx, {
      org_id: auth.member.org_id,
      parent_id: manager.id,
      role: body.role,
      username: body.username,
      password_hash: passwordHash,
      first_name: body.first_name,
      last_name: body.last_name,
      email: body.email,
      phone: body.phone || null,
      billing_item_id: body.billing_item_id,
      billing_group_id: body.billing_group_id,
      subgroup_id: body.subgroup_id,
      subscription_status: 'active',
      created_at: at,
      updated_at: at,
    });
    await issuePersonalToken(tx, ctx.secretKey, member);
    return member;
  });
}

export async function updateMember(
  ctx: Pick<MembersDeps, 'store' | 'secretKey'>,
  auth: AuthContext,
  id: number,
  body: z.output<typeof updateMemberBody>,
) {
  const member = await visibleMember(ctx, auth, id);
  if (body.manager_id !== undefined || body.role !== undefined) requireVendor(auth, 'move a member in the team tree or change its role');
  const changes = {
    first_name: body.first_name,
    last_name: body.last_name,
    email: body.email_address ?? body.email,
    username: body.username,
    phone: body.phone === undefined ? undefined : body.phone || null,
  };
  return ctx.store.write(async (tx) => {
    if (changes.username) await assertUsernameFree(tx, changes.username, member.id);
    const placement = await placementOf(tx, auth, member, body);
    return repo.updateMember(tx, member.id, { ...changes, ...placement, updated_at: now() });
  });
}

/**
 * A new manager or role (extensions): the manager must be a manager or the vendor, and not the member itself or
 * anyone beneath it; the vendor keeps its role; a manager with a team stays one until its team has moved.
 */
async function placementOf(tx: Db, auth: AuthContext, member: Member, body: z.output<typeof updateMemberBody>) {
  const placement: { parent_id?: number; role?: Member['role'] } = {};
  if (body.role !== undefined && body.role !== member.role) {
    if (member.role === 'vendor') throw invalidField('role', "The vendor account's role cannot change.");
    if (body.role === 'member' && (await teamIds(tx, member.id)).length > 1) {
      throw conflict(`Member ${member.id} has a team; move its members to another manager before making it a member.`);
    }
    placement.role = body.role;
  }
  if (body.manager_id !== undefined && body.manager_id !== member.parent_id) {
    if (member.role === 'vendor') throw invalidField('manager_id', 'The vendor account has no manager.');
    if ((await teamIds(tx, member.id)).includes(body.manager_id)) {
      throw invalidField(
        'manager_id',
        `manager_id ${body.manager_id} is ${body.manager_id === member.id ? 'the member itself' : 'in its own team'}; choose a manager above or beside it.`,
      );
    }
    placement.parent_id = (await assertManager(tx, auth, body.manager_id)).id;
  }
  return placement;
}

/**
 * Removes a member (DELETE): its contacts go to `contactsTo` (extension) or the member above it, its team to the
 * member above it; its dial sessions end as the rep's End would end them (a call in progress is hung up); its tokens
 * and web sessions end at once, so open event streams close on every process (dial-events streams check them).
 */
export async function deleteMember(ctx: MembersDeps, auth: AuthContext, id: number, contactsTo?: number) {
  requireVendor(auth, 'delete members');
  const member = await visibleMember(ctx, auth, id);
  if (member.id === auth.member.id) throw forbidden('The vendor account cannot delete itself.');
  const parentId = member.parent_id ?? auth.member.id;
  const commands = await ctx.store.write(async (tx) => {
    const present = await findMemberById(tx, member.id);
    if (!present) throw notFound(`There is no member ${id} in your team.`);
    const heirId = contactsTo === undefined ? parentId : (await heirFor(tx, auth, member, contactsTo)).id;
    const ended: CarrierCommand[] = [];
    for (const sessionId of await unendedSessionIds(tx, member.id))
      ended.push(...((await driveIn(ctx, tx, sessionId, { type: 'end' }))?.commands ?? []));
    await deleteSsoKeysOf(tx, member.id);
    await repo.removeMember(tx, member, { contactsTo: heirId, teamTo: parentId }, now(), auth.member.id);
    return ended;
  });
  await afterCommit(ctx, commands);
}

async function heirFor(tx: Db, auth: AuthContext, member: Member, contactsTo: number): Promise<Member> {
  const heir = await findMemberById(tx, contactsTo);
  if (!heir || heir.org_id !== auth.member.org_id || heir.id === member.id) {
    throw unknownReference('move_contacts_to', `move_contacts_to ${contactsTo} is not another member of your organisation.`);
  }
  return heir;
}

export type NewVendor = { username: string; password: string; email: string; firstName?: string; lastName?: string; organisation?: string };

/** A new organisation and its vendor account: what operators create with the admin command. */
export async function createVendor(ctx: Pick<MembersDeps, 'store' | 'secretKey'>, input: NewVendor): Promise<Member> {
  const passwordHash = await hashPassword(input.password);
  const at = now();
  return ctx.store.write(async (tx) => {
    await assertUsernameFree(tx, input.username);
    const orgId = await repo.insertOrganisation(tx, input.organisation ?? `${input.username}'s organisation`, newCallbackSecret(), at);
    await insertStarterVoicemail(tx, orgId, at);
    const member = await repo.insertMember(tx, {
      org_id: orgId,
      parent_id: null,
      role: 'vendor',
      username: input.username,
      password_hash: passwordHash,
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      email: input.email,
      phone: null,
      billing_item_id: '0',
      billing_group_id: '',
      subgroup_id: '',
      subscription_status: 'active',
      created_at: at,
      updated_at: at,
    });
    await issuePersonalToken(tx, ctx.secretKey, member);
    return member;
  });
}
