import { Router } from 'express';
import { requireVendor } from '../../auth/access.js';
import { authOf } from '../../auth/middleware.js';
import type { MembersDeps } from './members.service.js';
import {
  changePasswordBody,
  createMemberBody,
  deleteMemberQuery,
  listMembersQuery,
  memberIdParam,
  updateMemberBody,
} from '../../contracts/members.js';
import { oneOfOne, pageMeta, sendList, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { activeCountsBy } from '../contacts/contact-counts.repository.js';
import * as service from './members.service.js';
import { changePassword, rotatePersonalToken } from './member-credentials.service.js';

export function membersRouter(ctx: MembersDeps): Router {
  const router = Router();

  router.get('/members/me', (req, res) => {
    const auth = authOf(req);
    sendSuccess(res, 200, 'members', { members: service.present(ctx, auth, auth.member) });
  });

  router.get('/members', async (req, res) => {
    const auth = authOf(req);
    const query = parse(listMembersQuery, req.query);
    if (query.user_id) {
      const member = await service.visibleMember(ctx, auth, query.user_id);
      return sendList(res, 'members', [service.present(ctx, auth, member)], oneOfOne());
    }
    const { rows, total } = await service.listMembers(ctx, auth, query);
    const counts = query.with_counts ? await activeCountsBy(ctx.store.db, auth.scope, 'owner_id') : undefined;
    const records = rows.map((m) => ({ ...service.present(ctx, auth, m), ...(counts ? { contact_count: counts.get(m.id) ?? 0 } : {}) }));
    sendList(res, 'members', records, pageMeta(query, total));
  });

  router.get('/members/:user_id', async (req, res) => {
    const auth = authOf(req);
    const member = await service.visibleMember(ctx, auth, parse(memberIdParam, req.params).user_id);
    sendList(res, 'members', [service.present(ctx, auth, member)], oneOfOne());
  });

  router.post('/members', async (req, res) => {
    const auth = authOf(req);
    requireVendor(auth, 'create members');
    const member = await service.createMember(ctx, auth, parse(createMemberBody, req.body));
    sendSuccess(res, 201, 'members', { members: service.present(ctx, auth, member) });
  });

  router.put('/members/:user_id', async (req, res) => {
    const auth = authOf(req);
    const { user_id } = parse(memberIdParam, req.params);
    const member = await service.updateMember(ctx, auth, user_id, parse(updateMemberBody, req.body));
    sendSuccess(res, 200, 'members', { members: service.present(ctx, auth, member) });
  });

  router.put('/members/:user_id/password', async (req, res) => {
    const auth = authOf(req);
    const { user_id } = parse(memberIdParam, req.params);
    await changePassword(ctx, auth, user_id, parse(changePasswordBody, req.body), req.ip ?? 'unknown');
    sendNoContent(res);
  });

  router.post('/members/:user_id/token', async (req, res) => {
    const auth = authOf(req);
    const member = await rotatePersonalToken(ctx, auth, parse(memberIdParam, req.params).user_id);
    sendSuccess(res, 200, 'members', { members: service.present(ctx, auth, member) });
  });

  router.delete('/members/:user_id', async (req, res) => {
    const auth = authOf(req);
    requireVendor(auth, 'delete members');
    await service.deleteMember(
      ctx,
      auth,
      parse(memberIdParam, req.params).user_id,
      parse(deleteMemberQuery, req.query).move_contacts_to ?? undefined,
    );
    sendNoContent(res);
  });

  return router;
}
