import type { Request, RequestHandler } from 'express';
import type { Store } from '../db/database.js';
import type { Config } from '../config.js';
import { DomainError } from '../lib/errors.js';
import { ApiError, Codes } from '../lib/http-errors.js';
import { type AuthContext, scopeFor } from './access.js';
import { findMemberById } from './auth.repository.js';
import { resumeSession, sessionIdsOf } from './sessions.js';
import { memberForToken, sha256 } from './tokens.js';

export type AuthenticateDeps = { store: Store; config: Pick<Config, 'session'> };

/** The header the web app sets on every request; a cross-site form or image cannot set it. */
export const CSRF_HEADER = 'x-ringbook-request';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireCsrfHeader(req: Request) {
  if (!SAFE_METHODS.has(req.method) && req.get(CSRF_HEADER) !== '1') {
    throw new ApiError(403, [
      { code: Codes.csrfHeaderMissing, reason: `Requests made with the session cookie must carry the header "X-Ringbook-Request: 1".` },
    ]);
  }
}

/**
 * Every /rest/1 route acts as one member: the one a bearer token names, or, for the web app, the one
 * whose session cookie is presented.
 */
export function authenticate(ctx: AuthenticateDeps): RequestHandler {
  const { db } = ctx.store;
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (header) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match)
        throw new ApiError(401, [{ code: Codes.malformedAuthorization, reason: 'The Authorization header must be "Bearer <token>".' }]);
      const hash = sha256(match[1]!);
      const { member, catalogVersion } = await memberForToken(ctx.store, hash);
      req.auth = { member, via: 'bearer', scope: await scopeFor(db, member), credential: { kind: 'token', hash }, catalogVersion };
      return next();
    }
    const candidates = sessionIdsOf(req);
    if (!candidates.length)
      throw new ApiError(401, [
        { code: Codes.missingAuthorization, reason: 'The Authorization header is missing. Send "Authorization: Bearer <token>".' },
      ]);
    const session = await firstLiveSession(ctx, candidates);
    const member = session && (await findMemberById(db, session.memberId));
    if (!session || !member) throw new DomainError('session_ended', 'Your session has ended. Sign in again.');
    requireCsrfHeader(req);
    req.auth = { member, via: 'session', scope: await scopeFor(db, member), credential: { kind: 'session', hash: sha256(session.id) } };
    next();
  };
}

/*
 * Another app on the same host may set a cookie of the same name (the browser then sends both, in no order we
 * choose): the first of them that is a live session of ours is the one, so a planted cookie cannot sign anyone out.
 */
async function firstLiveSession(ctx: AuthenticateDeps, ids: string[]): Promise<{ id: string; memberId: number } | undefined> {
  for (const id of ids) {
    const memberId = await resumeSession(ctx.store, id, ctx.config.session);
    if (memberId) return { id, memberId };
  }
  return undefined;
}

export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new ApiError(401, [{ code: Codes.missingAuthorization, reason: 'Sign in first.' }]);
  return req.auth;
}
