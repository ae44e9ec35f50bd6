import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { TagsDeps } from './tags.service.js';
import { listTagsQuery, tagBody, tagIdParam, type WrittenTagRecord } from '../../contracts/tags.js';
import { pageMeta, sendList, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as service from './tags.service.js';

const written = (tag: { id: number; title: string }): WrittenTagRecord => ({ id: tag.id, tag: tag.title });

/** The organisation's tag catalogue, as the web app's tag filter and admin screen and integrations use it. */
export function tagsRouter(ctx: TagsDeps): Router {
  const router = Router();

  router.get('/tags', async (req, res) => {
    const query = parse(listTagsQuery, req.query);
    const { rows, total } = await service.listTags(ctx, authOf(req), query);
    sendList(res, 'tags', rows, pageMeta(query, total));
  });

  router.post('/tags', async (req, res) => {
    const { title } = parse(tagBody, req.body);
    sendSuccess(res, 202, 'tag', written(await service.createTag(ctx, authOf(req), title)));
  });

  router.put('/tags/:tag_id', async (req, res) => {
    const auth = authOf(req);
    const { tag_id } = parse(tagIdParam, req.params);
    const { title } = parse(tagBody, req.body);
    sendSuccess(res, 202, 'tag', written(await service.renameTag(ctx, auth, tag_id, title)));
  });

  router.delete('/tags/:tag_id', async (req, res) => {
    const auth = authOf(req);
    const { tag_id } = parse(tagIdParam, req.params);
    await service.deleteTag(ctx, auth, tag_id);
    sendNoContent(res);
  });

  return router;
}
