import { Router } from 'express';
import type { OpenStreams } from './open-streams.js';
import { signInBody } from '../contracts/members.js';
import { DomainError } from '../lib/errors.js';
import { sendNoContent, sendSuccess } from '../lib/envelope.js';
import { parse } from '../lib/validate.js';
import { findMemberByUsername } from './auth.repository.js';
import { DEVICE_COOKIE, DEVICE_MAX_AGE_SECONDS, deviceMemberOf, deviceToken } from './device.js';
import { admitSignIn, settleSignIn } from './login-throttle.js';
import { toMemberRecord } from './member-record.js';
import { authenticate, authOf, requireCsrfHeader } from './middleware.js';
import { spendDecoyVerification, verifyPassword } from './passwords.js';
import { sha256 } from './tokens.js';
import { endSession, SESSION_COOKIE, sessionIdsOf, setCookie, startBrowserSession, type SessionDeps } from './sessions.js';

/** The session's parts, the server key (device cookies) and this process's open streams (ended at sign-out). */
export type AuthRouterDeps = SessionDeps & { secretKey: Buffer; streams: Pick<OpenStreams, 'end'> };

/**
 * The web app's sign-in: the browser gets an HttpOnly, SameSite=Strict session cookie and never a bearer token.
 */
export function authRouter(ctx: AuthRouterDeps): Router {
  const router = Router();
  const { db } = ctx.store;

  router.post('/login', async (req, res) => {
    requireCsrfHeader(req);
    const { username, password } = parse(signInBody, req.body);
    const member = await findMemberByUsername(db, username);
    const attempt = { username, ip: req.ip ?? 'unknown', knownBrowser: !!member && deviceMemberOf(req, ctx.secretKey) === member.id };
    await admitSignIn(ctx.store, attempt);
    const ok = member ? await verifyPassword(password, member.password_hash) : (await spendDecoyVerification(password), false);
    if (!member || !ok) throw new DomainError('bad_credentials', 'Wrong username or password.');
    await settleSignIn(ctx.store, attempt);
    await startBrowserSession(ctx, req, res, member.id);
    if (!attempt.knownBrowser) setCookie(ctx, res, DEVICE_COOKIE, deviceToken(ctx.secretKey, member.id), DEVICE_MAX_AGE_SECONDS, '/auth');
    sendSuccess(res, 200, 'member', toMemberRecord(member));
  });

  router.post('/logout', async (req, res) => {
    requireCsrfHeader(req);
    for (const id of sessionIdsOf(req)) {
      await endSession(ctx.store, id);
      ctx.streams.end({ kind: 'session', hash: sha256(id) });
    }
    setCookie(ctx, res, SESSION_COOKIE, '', 0);
    sendNoContent(res);
  });

  router.get('/session', authenticate(ctx), (req, res) => {
    const auth = authOf(req);
    if (auth.via !== 'session') throw new DomainError('session_ended', 'No web session: sign in first.');
    sendSuccess(res, 200, 'member', toMemberRecord(auth.member));
  });

  return router;
}
