import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { DialReadsDeps } from '../dial-sessions/dial-reads.service.js';
import { callReadQuery, listCallsQuery } from '../../contracts/calls.js';
import { callIdParam } from '../../contracts/dial-sessions.js';
import { oneOfOne, pageMeta, sendList, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { callList, callRead } from './calls.service.js';

/** GET /rest/1/calls (extension): calls across sessions, filtered; GET /rest/1/calls/{call_id}: one of them (docs/api.md). */
export function callsRouter(ctx: DialReadsDeps): Router {
  const router = Router();
  router.get('/calls', async (req, res) => {
    const query = parse(listCallsQuery, req.query);
    const { records, total } = await callList(ctx, authOf(req), query);
    sendList(res, 'calls', records, pageMeta(query, total));
  });
  router.get('/calls/:call_id', async (req, res) => {
    const { call_id } = parse(callIdParam, req.params);
    const call = await callRead(ctx, authOf(req), call_id, parse(callReadQuery, req.query));
    sendSuccess(res, 200, 'call', { call, ...oneOfOne() });
  });
  return router;
}
