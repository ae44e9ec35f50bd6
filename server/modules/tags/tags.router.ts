import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { Context } from '../../context.js';
import { paging } from '../../contracts/common.js';
import { pageMeta, sendList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';

/** The organisation's tag catalogue, as the web app's tag filter and integrations read it. */
export function tagsRouter(ctx: Context): Router {
  const router = Router();
  router.get('/tags', async (req, res) => {
    const auth = authOf(req);
    const query = parse(paging, req.query);
    const base = ctx.store.db.selectFrom('tags').where('org_id', '=', auth.scope.orgId);
    const [rows, count] = await Promise.all([
      base.select(['id', 'title']).orderBy('title_lc').orderBy('id').limit(query.page_size).offset((query.page - 1) * query.page_size).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    sendList(res, 'tags', rows, pageMeta({ page: query.page, pageSize: query.page_size }, Number(count.n)));
  });
  return router;
}
