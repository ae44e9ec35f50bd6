import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { ContactsDeps } from './contacts.service.js';
import type { AuditRecord, ContactActivityRecord } from '../../contracts/contact-records.js';
import {
  activitiesQuery,
  contactIdParam,
  matchesQuery,
  createContactBody,
  deleteContactsBody,
  deleteContactsQuery,
  listContactsQuery,
  updateContactBody,
} from '../../contracts/contacts.js';
import { paging } from '../../contracts/common.js';
import { phoneNumberParam } from '../../contracts/dial-sessions.js';
import { oneOfOne, pageMeta, sendList, sendNoContent, sendSerializedList, sendSuccess } from '../../lib/envelope.js';
import { addSeconds, now, timestampOrZero } from '../../lib/time.js';
import { parse, parseQuery } from '../../lib/validate.js';
import { listActivities, listAudit } from './contact-history.repository.js';
import * as service from './contacts.service.js';
import { deletePhoneNumber } from './phone-numbers.service.js';

export function contactsRouter(ctx: ContactsDeps): Router {
  const router = Router();
  const { db } = ctx.store;

  router.get('/contacts', async (req, res) => {
    const auth = authOf(req);
    const query = parseQuery(listContactsQuery, req);
    const { records, total } = await service.listContacts(ctx, auth, query);
    sendSerializedList(res, 'contacts', records, pageMeta(query, total), {
      member_user_id: String(auth.member.id),
    });
  });

  router.post('/contacts', async (req, res) => {
    const { record } = await service.createContact(ctx, authOf(req), parse(createContactBody, req.body));
    // Older clients (a workflow platform's contact actions) read `contact.user_id` at the top level: answer that shape too.
    sendSuccess(
      res,
      201,
      'contacts',
      { contacts: record, additional_messages: record.duplicate_action !== 'created' },
      {
        contact: { user_id: record.contact_user_id, ...record },
      },
    );
  });

  router.delete('/contacts', async (req, res) => {
    const { permanent } = parse(deleteContactsQuery, req.query);
    const { contact_user_ids } = parse(deleteContactsBody, req.body);
    await service.deleteContacts(ctx, authOf(req), contact_user_ids, permanent);
    sendNoContent(res);
  });

  // Extension, before /contacts/:contact_id: the caller's contacts a new contact would duplicate.
  router.get('/contacts/matches', async (req, res) => {
    const { email, phone } = parse(matchesQuery, req.query);
    const records = await service.matchingRecords(ctx, authOf(req), email, phone);
    sendSerializedList(res, 'contacts', records, pageMeta({ page: 1, page_size: Math.max(1, records.length) }, records.length));
  });

  router.get('/contacts/:contact_id', async (req, res) => {
    const auth = authOf(req);
    const { contact_id } = parse(contactIdParam, req.params);
    parseQuery(paging, req);
    const { json, version } = await service.versionedRecord(ctx, auth, contact_id);
    res.set('ETag', service.etagOf(contact_id, version));
    sendSerializedList(res, 'contacts', [json], oneOfOne());
  });

  router.put('/contacts/:contact_id', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const ifMatch = req
      .get('if-match')
      ?.split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
    const contact = await service.updateContact(ctx, authOf(req), contact_id, parse(updateContactBody, req.body), ifMatch);
    res.set('ETag', service.etagOf(contact.id, contact.version));
    sendList(res, 'contacts', await service.presentContacts(db, [contact]), oneOfOne());
  });

  router.delete('/contacts/:contact_id', async (req, res) => {
    const { contact_id } = parse(contactIdParam, req.params);
    const { permanent } = parse(deleteContactsQuery, req.query);
    await service.deleteContacts(ctx, authOf(req), [contact_id], permanent);
    sendNoContent(res);
  });

  // Extension: the contract has no way back out of the trash. Answers the record as GET shows it.
  router.post('/contacts/:contact_id/restore', async (req, res) => {
    const auth = authOf(req);
    const { contact_id } = parse(contactIdParam, req.params);
    await service.restoreContact(ctx, auth, contact_id);
    sendSerializedList(res, 'contacts', [await service.contactRecord(ctx, auth, contact_id)], oneOfOne());
  });

  router.get('/contacts/:contact_id/activities', async (req, res) => {
    const auth = authOf(req);
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(activitiesQuery, req.query);
    await service.visibleContact(db, auth.scope, contact_id);
    const { rows, total } = await listActivities(db, contact_id, addSeconds(now(), -query.days * 86400), query);
    const records: ContactActivityRecord[] = rows.map((a) => ({
      user_activity_id: String(a.id),
      activity_id: String(a.activity_type),
      activity: a.activity,
      date: timestampOrZero(a.created_at),
    }));
    sendList(res, 'contact_activities', records, pageMeta(query, total));
  });

  router.get('/contacts/:contact_id/auditlog', async (req, res) => {
    const auth = authOf(req);
    const { contact_id } = parse(contactIdParam, req.params);
    const query = parse(paging, req.query);
    await service.visibleContact(db, auth.scope, contact_id);
    const { rows, total } = await listAudit(db, contact_id, query);
    const records: AuditRecord[] = rows.map((a) => ({
      contact_id: String(a.contact_id),
      member_id: String(a.member_id ?? 0),
      action: a.action,
      data_type: a.data_type,
      old: a.old_value,
      new: a.new_value,
      date_added: timestampOrZero(a.created_at),
    }));
    sendList(res, 'contact_activities', records, pageMeta(query, total));
  });

  router.delete('/phonenumber/:phone_number', async (req, res) => {
    const { phone_number } = parse(phoneNumberParam, req.params);
    await deletePhoneNumber(ctx, authOf(req), phone_number);
    sendNoContent(res);
  });

  return router;
}
