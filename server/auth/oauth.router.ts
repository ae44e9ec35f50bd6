import { type ErrorRequestHandler, type Response, Router } from 'express';
import { authorizeRequest, consentBody, revokeRequest, tokenRequest } from '../contracts/oauth.js';
import { sendSuccess } from '../lib/envelope.js';
import { OAuthError } from '../lib/errors.js';
import { ApiError } from '../lib/http-errors.js';
import { parseBodies } from '../lib/http.js';
import { parse } from '../lib/validate.js';
import { authenticate, authOf, type AuthenticateDeps } from './middleware.js';
import { checkAuthorizeRequest, type ConsentDeps, consentInfo, decide } from './oauth-authorize.service.js';
import { exchange, revoke } from './oauth-token.service.js';

export type OAuthRouterDeps = AuthenticateDeps & ConsentDeps;

/** Where the web app shows the consent screen (it signs the member in first when needed, and comes back). */
export const CONSENT_PATH = '/authorize';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A request that cannot be sent back to the integration (unknown client, unregistered redirect_uri) ends here. */
function errorPage(res: Response, reason: string) {
  res
    .status(400)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Cannot connect the integration · Ringbook</title><link rel="stylesheet" href="/oauth/error.css"></head>` +
        `<body><main><h1>This integration cannot be connected</h1><p>${escapeHtml(reason)}</p>` +
        `<p><a href="/">Back to Ringbook</a></p></main></body></html>`,
    );
}

/* The page's look, as a file: the Content-Security-Policy allows no inline style. */
const ERROR_CSS = `body{margin:0;background:#fafafa;font:15px/1.5 system-ui,sans-serif;color:#27272a}
main{max-width:32rem;margin:4rem auto;padding:1.5rem;background:#fff;border:1px solid #e4e4e7;border-radius:.5rem}
h1{margin:0 0 .5rem;font-size:1.25rem}a{color:#4f46e5}`;

/** RFC 6749 5.1: token answers are never cached. */
const noCache = (res: Response) => res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });

/** The OAuth 2.0 endpoints compat-notes lists, plus the consent screen's look-up and decision and RFC 7009 revocation. */
export function oauthRouter(ctx: OAuthRouterDeps): Router {
  const router = Router();
  router.use(parseBodies);

  router.get(['/authorize', '/index'], async (req, res) => {
    const check = await checkAuthorizeRequest(ctx.store.db, parse(authorizeRequest, req.query));
    if (check.kind === 'error_page') return errorPage(res, check.reason);
    if (check.kind === 'redirect') return res.redirect(302, check.to);
    const q = req.originalUrl.indexOf('?');
    res.redirect(302, `${CONSENT_PATH}${q < 0 ? '' : req.originalUrl.slice(q)}`);
  });

  router.get('/error.css', (_req, res) => {
    res.type('css').send(ERROR_CSS);
  });

  router.get('/consent', authenticate(ctx), async (req, res) => {
    sendSuccess(res, 200, 'consent', await consentInfo(ctx, authOf(req), parse(authorizeRequest, req.query)));
  });

  router.post('/consent', authenticate(ctx), async (req, res) => {
    sendSuccess(res, 200, 'consent', { redirect_to: await decide(ctx, authOf(req), parse(consentBody, req.body)) });
  });

  router.post(['/accesstoken', '/refreshtoken'], async (req, res) => {
    const body = tokenRequest.safeParse(req.body ?? {});
    if (!body.success) throw new OAuthError('invalid_request', 'A field of the request is not text or is too long.');
    noCache(res).json(await exchange(ctx, body.data, req.get('authorization')));
  });

  router.post('/revoke', async (req, res) => {
    const body = revokeRequest.safeParse(req.body ?? {});
    if (!body.success) throw new OAuthError('invalid_request', 'A field of the request is not text or is too long.');
    await revoke(ctx, body.data, req.get('authorization'));
    noCache(res).status(200).end();
  });

  router.use(tokenEndpointErrors);
  return router;
}

const TOKEN_ENDPOINTS = new Set(['/accesstoken', '/refreshtoken', '/revoke']);

/* A body the token endpoints cannot read (not JSON, not a form, too large) is refused in the RFC's words too. */
const tokenEndpointErrors: ErrorRequestHandler = (error, req, _res, next) => {
  const unreadable = error instanceof ApiError ? error.status < 500 : typeof error?.status === 'number' && error.status < 500;
  if (!TOKEN_ENDPOINTS.has(req.path) || error instanceof OAuthError || !unreadable) return next(error);
  next(new OAuthError('invalid_request', 'The request body must be a form (application/x-www-form-urlencoded) or JSON.'));
};
