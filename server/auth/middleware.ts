import type { Request, RequestHandler } from 'express';
import type { Context } from '../context.js';
import type { Member } from '../db/schema.js';
import { ApiError, Codes, forbidden, unauthorized } from '../lib/errors.js';
import { type AuthContext, scopeFor } from './access.js';
import { findMemberById } from './auth.repository.js';
import { resumeSession, sessionIdOf } from './sessions.js';
import { memberForToken } from './tokens.js';

/** The header the web app sets on every request; a cross-site form or image cannot set it. */
export const CSRF_HEADER = 'x-ringbook-request';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireCsrfHeader(req: Request) {
  if (!SAFE_METHODS.has(req.method) && req.get(CSRF_HEADER) !== '1') {
    throw forbidden(`Requests made with the session cookie must carry the header "X-Ringbook-Request: 1".`, Codes.csrfHeaderMissing);
  }
}

/**
 * Every /rest/1 route acts as one member: the one a bearer token names, or, for the web app, the one
 * whose session cookie is presented.
 */
export function authenticate(ctx: Context): RequestHandler {
  const { db } = ctx.store;
  return async (req, _res, next) => {
    const header = req.get('authorization');
    let member: Member | undefined;
    let via: AuthContext['via'] = 'bearer';
    if (header) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw unauthorized(Codes.malformedAuthorization, 'The Authorization header must be "Bearer <token>".');
      member = await memberForToken(db, match[1]!);
    } else {
      const sessionId = sessionIdOf(req);
      if (!sessionId)
        throw unauthorized(Codes.missingAuthorization, 'The Authorization header is missing. Send "Authorization: Bearer <token>".');
      const memberId = await resumeSession(ctx.store, sessionId, ctx.config.session);
      if (!memberId) throw unauthorized(Codes.sessionEnded, 'Your session has ended. Sign in again.');
      requireCsrfHeader(req);
      via = 'session';
      member = await findMemberById(db, memberId);
      if (!member) throw unauthorized(Codes.sessionEnded, 'Your session has ended. Sign in again.');
    }
    req.auth = { member, via, scope: await scopeFor(db, member) };
    next();
  };
}

export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new ApiError(401, [{ code: Codes.missingAuthorization, reason: 'Sign in first.' }]);
  return req.auth;
}
