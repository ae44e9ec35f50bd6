import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { createTokenBody, listTokensQuery, tokenIdParam } from '../../contracts/oauth.js';
import { sendList, sendNoContent, sendSuccess, wholeList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as service from './tokens.service.js';

/** Extensions: the personal access tokens members make (settings), and the vendor's view of everyone's. */
export function accessTokensRouter(ctx: service.AccessTokensDeps): Router {
  const router = Router();

  router.get('/tokens', async (req, res) => {
    const { entire_team } = parse(listTokensQuery, req.query);
    const list = await service.listTokens(ctx, authOf(req), entire_team);
    sendList(res, 'tokens', list, wholeList(list.length));
  });

  router.post('/tokens', async (req, res) => {
    const { name } = parse(createTokenBody, req.body);
    sendSuccess(res, 201, 'tokens', { tokens: await service.createToken(ctx, authOf(req), name) });
  });

  router.delete('/tokens/:token_id', async (req, res) => {
    await service.revokeNamedToken(ctx, authOf(req), parse(tokenIdParam, req.params).token_id);
    sendNoContent(res);
  });

  return router;
}
