import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { DetailsDeps } from './detail-change.js';
import { paging } from '../../contracts/common.js';
import { contactTagBody, contactTagParams } from '../../contracts/contact-details.js';
import { contactIdParam } from '../../contracts/contacts.js';
import type { TagRecord } from '../../contracts/tags.js';
import { pageMeta, sendList, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as service from './contact-tags.service.js';

const tagRecord = (tag: { id: number; title: string }): TagRecord => ({ id: tag.id, title: tag.title });

/** /contacts/{contact_id}/tags. The contract shows 202 even for GET of one tag, and for its writes. */
export function contactTagsRouter(ctx: DetailsDeps): Router {
  const router = Router();

  router.get('/contacts/:contact_id/tags', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(paging, req.query);
    const { rows, total } = await service.listContactTags(ctx, authOf(req), contact_id, query);
    sendList(res, 'tags', rows.map(tagRecord), pageMeta(query, total));
  });
  router.post('/contacts/:contact_id/tags', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { title } = parse(contactTagBody, req.body);
    sendSuccess(res, 202, 'tag', tagRecord(await service.addContactTag(ctx, authOf(req), contact_id, title)));
  });
  router.get('/contacts/:contact_id/tags/:tag_id', async (req, res) => {
    const { contact_id, tag_id } = parse(contactTagParams, req.params);
    sendSuccess(res, 202, 'tag', tagRecord(await service.getContactTag(ctx, authOf(req), contact_id, tag_id)));
  });
  router.put('/contacts/:contact_id/tags/:tag_id', async (req, res) => {
    const { contact_id, tag_id } = parse(contactTagParams, req.params);
    const { title } = parse(contactTagBody, req.body);
    sendSuccess(res, 202, 'tag', tagRecord(await service.replaceContactTag(ctx, authOf(req), contact_id, tag_id, title)));
  });
  router.delete('/contacts/:contact_id/tags/:tag_id', async (req, res) => {
    const { contact_id, tag_id } = parse(contactTagParams, req.params);
    await service.removeContactTag(ctx, authOf(req), contact_id, tag_id);
    sendNoContent(res);
  });

  return router;
}
