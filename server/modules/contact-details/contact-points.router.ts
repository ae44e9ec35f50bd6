import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { DetailsDeps } from './detail-change.js';
import { paging } from '../../contracts/common.js';
import {
  addEmailBody,
  addPhoneBody,
  changeEmailBody,
  changePhoneBody,
  emailIdParams,
  phoneIdParams,
  replaceEmailsBody,
  replacePhonesBody,
} from '../../contracts/contact-details.js';
import { contactIdParam } from '../../contracts/contacts.js';
import { pageMeta, sendList, sendNoContent, sendSuccess, wholeList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as points from './contact-points.service.js';
import { EMAILS, emailRecord, PHONES, phoneRecord } from './point-kinds.js';

/** /contacts/{contact_id}/emails and /phones. The contract's statuses: 202 for e-mail writes, 200 for a phone added. */
export function contactPointsRouter(ctx: DetailsDeps): Router {
  const router = Router();

  router.get('/contacts/:contact_id/emails', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(paging, req.query);
    const { rows, total } = await points.listPoints(ctx, authOf(req), EMAILS, contact_id, query);
    sendList(res, 'emails', rows.map(emailRecord), pageMeta(query, total));
  });
  router.post('/contacts/:contact_id/emails', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { email_address, is_primary } = parse(addEmailBody, req.body);
    const { row } = await points.addPoint(ctx, authOf(req), EMAILS, contact_id, { email_address }, is_primary);
    sendSuccess(res, 202, 'email', emailRecord(row!));
  });
  router.put('/contacts/:contact_id/emails', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { rows } = await points.replacePoints(ctx, authOf(req), EMAILS, contact_id, parse(replaceEmailsBody, req.body));
    sendSuccess(res, 202, 'emails', { emails: rows.map(emailRecord), ...wholeList(rows.length) });
  });
  router.get('/contacts/:contact_id/emails/:email_id', async (req, res) => {
    const { contact_id, email_id } = parse(emailIdParams, req.params);
    sendSuccess(res, 200, 'email', emailRecord(await points.getPoint(ctx, authOf(req), EMAILS, contact_id, email_id)));
  });
  router.put('/contacts/:contact_id/emails/:email_id', async (req, res) => {
    const { contact_id, email_id } = parse(emailIdParams, req.params);
    const { email_address, is_primary } = parse(changeEmailBody, req.body);
    const { row } = await points.changePoint(ctx, authOf(req), EMAILS, contact_id, email_id, () => ({ email_address }), is_primary);
    sendSuccess(res, 202, 'email', emailRecord(row!));
  });
  router.delete('/contacts/:contact_id/emails/:email_id', async (req, res) => {
    const { contact_id, email_id } = parse(emailIdParams, req.params);
    await points.deletePoint(ctx, authOf(req), EMAILS, contact_id, email_id);
    sendNoContent(res);
  });

  router.get('/contacts/:contact_id/phones', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(paging, req.query);
    const { rows, total } = await points.listPoints(ctx, authOf(req), PHONES, contact_id, query);
    sendList(res, 'phones', rows.map(phoneRecord), pageMeta(query, total));
  });
  router.post('/contacts/:contact_id/phones', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { is_primary, ...entry } = parse(addPhoneBody, req.body);
    const { row } = await points.addPoint(ctx, authOf(req), PHONES, contact_id, entry, is_primary);
    sendSuccess(res, 200, 'phone', phoneRecord(row!));
  });
  router.put('/contacts/:contact_id/phones', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { phones } = parse(replacePhonesBody, req.body);
    const { rows } = await points.replacePoints(ctx, authOf(req), PHONES, contact_id, phones);
    sendSuccess(res, 202, 'phones', { phones: rows.map(phoneRecord), ...wholeList(rows.length) });
  });
  router.get('/contacts/:contact_id/phones/:phone_id', async (req, res) => {
    const { contact_id, phone_id } = parse(phoneIdParams, req.params);
    sendSuccess(res, 200, 'phone', phoneRecord(await points.getPoint(ctx, authOf(req), PHONES, contact_id, phone_id)));
  });
  router.put('/contacts/:contact_id/phones/:phone_id', async (req, res) => {
    const { contact_id, phone_id } = parse(phoneIdParams, req.params);
    const { phone_number, type, label, is_primary } = parse(changePhoneBody, req.body);
    const entryFor = (row: { type: number; label: string }) => ({ phone_number, type: type ?? row.type, label: label ?? row.label });
    const { row } = await points.changePoint(ctx, authOf(req), PHONES, contact_id, phone_id, entryFor, is_primary);
    sendSuccess(res, 202, 'phone', phoneRecord(row!));
  });
  router.delete('/contacts/:contact_id/phones/:phone_id', async (req, res) => {
    const { contact_id, phone_id } = parse(phoneIdParams, req.params);
    await points.deletePoint(ctx, authOf(req), PHONES, contact_id, phone_id);
    sendNoContent(res);
  });

  return router;
}
