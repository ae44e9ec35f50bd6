import type { z } from 'zod';
import { type AuthContext, isVendor } from '../../auth/access.js';
import { deleteSessionsOf, revokeTokensOf } from '../../auth/auth.repository.js';
import { admitSignIn, settleSignIn } from '../../auth/login-throttle.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { issuePersonalToken } from '../../auth/tokens.js';
import type { Store } from '../../db/database.js';
import type { changePasswordBody } from '../../contracts/members.js';
import type { Member } from '../../db/schema.js';
import { forbidden, invalidField, missingField } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './members.repository.js';
import { visibleMember } from './members.service.js';

export type CredentialsDeps = { store: Store; secretKey: Buffer };

/*
 * A member's ways in, besides its removal: its password and its personal access token. A member changes its own;
 * the vendor changes anyone's in its organisation (a rep who leaves in a hurry, a token that leaked).
 */

async function ownerOrVendor(ctx: CredentialsDeps, auth: AuthContext, id: number, action: string): Promise<Member> {
  const member = await visibleMember(ctx, auth, id);
  if (member.id !== auth.member.id && !isVendor(auth.member))
    throw forbidden(`Only the member itself or the organisation's vendor can ${action}.`);
  return member;
}

/**
 * Sets a new password. One's own change must give the current password, counted like a sign-in attempt (a stolen
 * session cannot guess it faster than the sign-in page allows). Every other web session of the member ends, and with
 * them their open event streams; the session that made the change stays.
 */
export async function changePassword(
  ctx: CredentialsDeps,
  auth: AuthContext,
  id: number,
  body: z.output<typeof changePasswordBody>,
  ip: string,
) {
  const member = await ownerOrVendor(ctx, auth, id, 'change its password');
  if (member.id === auth.member.id) await checkCurrentPassword(ctx, member, body.current_password, ip);
  const passwordHash = await hashPassword(body.password);
  const keep = auth.credential?.kind === 'session' && member.id === auth.member.id ? auth.credential.hash : undefined;
  await ctx.store.write(async (tx) => {
    await repo.updateMember(tx, member.id, { password_hash: passwordHash, updated_at: now() });
    await deleteSessionsOf(tx, member.id, keep);
  });
}

async function checkCurrentPassword(ctx: CredentialsDeps, member: Member, given: string | undefined, ip: string) {
  if (!given) throw missingField('current_password', 'current_password is required to change your own password.');
  const attempt = { username: member.username, ip, knownBrowser: true };
  await admitSignIn(ctx.store, attempt);
  if (!(await verifyPassword(given, member.password_hash))) {
    throw invalidField('current_password', 'current_password is not the password you sign in with.');
  }
  await settleSignIn(ctx.store, attempt);
}

/**
 * Revokes the member's personal access token and issues the next one: the old token is refused from the next request
 * on, on every server process (tokens are checked in the store), and the member record's oauth.bearer_token answers
 * the new one.
 */
export async function rotatePersonalToken(ctx: CredentialsDeps, auth: AuthContext, id: number): Promise<Member> {
  const member = await ownerOrVendor(ctx, auth, id, 'replace its access token');
  return ctx.store.write(async (tx) => {
    const at = now();
    await revokeTokensOf(tx, member.id, at, 'personal');
    const next = await repo.nextTokenGeneration(tx, member.id, at);
    await issuePersonalToken(tx, ctx.secretKey, next);
    return next;
  });
}
