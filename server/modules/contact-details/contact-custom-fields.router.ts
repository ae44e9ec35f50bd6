import { type RequestHandler, Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { DetailsDeps } from './detail-change.js';
import { paging } from '../../contracts/common.js';
import { contactFieldParams, customValueBody } from '../../contracts/contact-details.js';
import { contactIdParam } from '../../contracts/contacts.js';
import type { ContactCustomFieldValueRecord } from '../../contracts/custom-fields.js';
import { oneOfOne, pageMeta, sendList, sendNoContent } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { fieldRecord } from '../custom-fields/custom-fields.serializer.js';
import * as service from './contact-custom-fields.service.js';

const valueRecord = (contactId: number, { field, value }: service.FieldValue): ContactCustomFieldValueRecord => ({
  ...fieldRecord(field, `/rest/1/contacts/${contactId}/customfields/${field.id}`),
  value,
});

/** /contacts/{contact_id}/customfields: answers are lists (of one for a single field), as the contract shows. */
export function contactCustomFieldsRouter(ctx: DetailsDeps): Router {
  const router = Router();

  router.get('/contacts/:contact_id/customfields', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(paging, req.query);
    const { values, total } = await service.listContactValues(ctx, authOf(req), contact_id, query);
    sendList(
      res,
      'customfields',
      values.map((v) => valueRecord(contact_id, v)),
      pageMeta(query, total),
    );
  });

  router.get('/contacts/:contact_id/customfields/:custom_field_id', async (req, res) => {
    const { contact_id, custom_field_id } = parse(contactFieldParams, req.params);
    sendList(
      res,
      'customfields',
      [valueRecord(contact_id, await service.getContactValue(ctx, authOf(req), contact_id, custom_field_id))],
      oneOfOne(),
    );
  });

  // POST and PUT do the same: set the value (the contract gives both).
  const setValue: RequestHandler = async (req, res) => {
    const { contact_id, custom_field_id } = parse(contactFieldParams, req.params);
    const { value } = parse(customValueBody, req.body);
    const set = await service.setContactValue(ctx, authOf(req), contact_id, custom_field_id, value || null);
    sendList(res, 'customfields', [valueRecord(contact_id, set)], oneOfOne());
  };
  router.route('/contacts/:contact_id/customfields/:custom_field_id').post(setValue).put(setValue);

  router.delete('/contacts/:contact_id/customfields/:custom_field_id', async (req, res) => {
    const { contact_id, custom_field_id } = parse(contactFieldParams, req.params);
    await service.setContactValue(ctx, authOf(req), contact_id, custom_field_id, null);
    sendNoContent(res);
  });

  return router;
}
