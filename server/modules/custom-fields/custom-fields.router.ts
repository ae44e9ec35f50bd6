import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { CustomFieldsDeps } from './custom-fields.service.js';
import { createFieldBody, fieldIdParam, listFieldsQuery, updateFieldBody } from '../../contracts/custom-fields.js';
import { oneOfOne, pageMeta, sendList, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as service from './custom-fields.service.js';

/** Custom-field definitions. A single definition is answered as a list of one, as the contract's GET shows. */
export function customFieldsRouter(ctx: CustomFieldsDeps): Router {
  const router = Router();

  router.get('/customfields', async (req, res) => {
    const query = parse(listFieldsQuery, req.query);
    const { records, total } = await service.listFields(ctx, authOf(req), query);
    sendList(res, 'customfields', records, pageMeta(query, total));
  });

  router.post('/customfields', async (req, res) => {
    const record = await service.createField(ctx, authOf(req), parse(createFieldBody, req.body));
    sendSuccess(res, 201, 'customfields', { customfields: [record], ...oneOfOne() });
  });

  router.get('/customfields/:custom_field_id', async (req, res) => {
    const { custom_field_id } = parse(fieldIdParam, req.params);
    sendList(res, 'customfields', [await service.getField(ctx, authOf(req), custom_field_id)], oneOfOne());
  });

  router.put('/customfields/:custom_field_id', async (req, res) => {
    const auth = authOf(req);
    const { custom_field_id } = parse(fieldIdParam, req.params);
    const record = await service.updateField(ctx, auth, custom_field_id, parse(updateFieldBody, req.body));
    sendList(res, 'customfields', [record], oneOfOne());
  });

  router.delete('/customfields/:custom_field_id', async (req, res) => {
    const auth = authOf(req);
    const { custom_field_id } = parse(fieldIdParam, req.params);
    await service.deleteField(ctx, auth, custom_field_id);
    sendNoContent(res);
  });

  return router;
}
