import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { Context } from '../../context.js';
import { paging } from '../../contracts/common.js';
import { pageMeta, sendList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { listTags } from './tags.repository.js';

/** The organisation's tag catalogue, as the web app's tag filter and integrations read it. */
export function tagsRouter(ctx: Context): Router {
  const router = Router();
  router.get('/tags', async (req, res) => {
    const auth = authOf(req);
    const query = parse(paging, req.query);
    const { rows, total } = await listTags(ctx.store.db, auth.scope.orgId, query);
    sendList(res, 'tags', rows, pageMeta(query, total));
  });
  return router;
}
