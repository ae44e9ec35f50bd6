import { Router } from 'express';
import { startBrowserSession, type SessionDeps } from '../../auth/sessions.js';
import { sha256 } from '../../auth/tokens.js';
import { now } from '../../lib/time.js';
import { consumeSsoKey } from './dial-sessions.repository.js';

const KEY = /^[A-Za-z0-9_-]{43}$/;

/**
 * The redirect_url of a new dial session: its one-time key signs the member in (the same session cookie as
 * /auth/login) and lands on the dialer screen. A used, expired or unknown key signs nobody in and lands on the
 * sign-in page, which says the link has expired. The key is in the query string, which request logs leave out, and
 * the answer sends no Referer onward.
 */
export function ssoRouter(ctx: SessionDeps): Router {
  const router = Router();
  router.get('/sso/dialer', async (req, res) => {
    res.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });
    const key = typeof req.query.key === 'string' ? req.query.key : '';
    const spent = KEY.test(key) ? await ctx.store.write((tx) => consumeSsoKey(tx, sha256(key), now())) : undefined;
    if (!spent) return res.redirect(303, '/sign-in?link=expired');
    await startBrowserSession(ctx, req, res, spent.member_id);
    res.redirect(303, `/dialer/${spent.session_id}`);
  });
  return router;
}
