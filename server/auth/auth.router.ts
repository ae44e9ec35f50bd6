import { Router, type Response } from 'express';
import type { Context } from '../context.js';
import { signInBody } from '../contracts/members.js';
import { Codes, unauthorized } from '../lib/errors.js';
import { parseCookies } from '../lib/http.js';
import { sendNoContent, sendSuccess } from '../lib/envelope.js';
import { parse } from '../lib/validate.js';
import { toMemberRecord } from './member-record.js';
import { findMemberByUsername } from './auth.repository.js';
import { assertNotThrottled, clearFailures, recordFailure } from './login-throttle.js';
import { authenticate, authOf, requireCsrfHeader } from './middleware.js';
import { spendDecoyVerification, verifyPassword } from './passwords.js';
import { endSession, SESSION_COOKIE, startSession } from './sessions.js';

/**
 * The web app's sign-in: the browser gets an HttpOnly, SameSite=Strict session cookie and never a bearer token.
 */
export function authRouter(ctx: Context): Router {
  const router = Router();
  const { db } = ctx.store;
  const secure = ctx.config.publicUrl.startsWith('https:');

  const setCookie = (res: Response, value: string, maxAgeSeconds: number) => {
    const attributes = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
    if (secure) attributes.push('Secure');
    res.append('Set-Cookie', attributes.join('; '));
  };

  router.post('/login', async (req, res) => {
    requireCsrfHeader(req);
    const { username, password } = parse(signInBody, req.body);
    const ip = req.ip ?? 'unknown';
    await assertNotThrottled(db, username, ip);
    const member = await findMemberByUsername(db, username);
    const ok = member ? await verifyPassword(password, member.password_hash) : (await spendDecoyVerification(password), false);
    if (!member || !ok) {
      await recordFailure(ctx.store, username, ip);
      throw unauthorized(Codes.badCredentials, 'Wrong username or password.');
    }
    await clearFailures(ctx.store, username);
    // A new id at every sign-in; a session cookie the browser already had is ended, not reused.
    const previous = parseCookies(req.get('cookie'))[SESSION_COOKIE];
    if (previous) await endSession(ctx.store, previous);
    setCookie(res, await startSession(ctx.store, member.id, ctx.config.session), ctx.config.session.maxSeconds);
    sendSuccess(res, 200, 'member', toMemberRecord(member));
  });

  router.post('/logout', async (req, res) => {
    requireCsrfHeader(req);
    const id = parseCookies(req.get('cookie'))[SESSION_COOKIE];
    if (id) await endSession(ctx.store, id);
    setCookie(res, '', 0);
    sendNoContent(res);
  });

  router.get('/session', authenticate(ctx), (req, res) => {
    const auth = authOf(req);
    if (auth.via !== 'session') throw unauthorized(Codes.sessionEnded, 'No web session: sign in first.');
    sendSuccess(res, 200, 'member', toMemberRecord(auth.member));
  });

  return router;
}
