import type { z } from 'zod';
import type { AuthContext } from '../../auth/access.js';
import type { Context } from '../../context.js';
import {
  type callQuery,
  type dialSessionQuery,
  type listDialSessionsQuery,
  MAX_USAGE_DAYS,
  type UsageRecord,
  type usageQuery,
} from '../../contracts/dial-sessions.js';
import { listMembers } from '../members/members.repository.js';
import { badRequest, Codes, forbidden, notFound } from '../../lib/errors.js';
import { callCounts, findVisibleSession, listSessions } from './dial-sessions.repository.js';
import { findVisibleCall, listCalls, usageOf } from './calls.repository.js';
import { toCallRecord, toSessionRecord } from './dial-sessions.serializer.js';

/** Sessions of the caller and (by the team rules) its team, newest first, without their calls. */
export async function sessionList(ctx: Context, auth: AuthContext, q: z.output<typeof listDialSessionsQuery>) {
  const range = { from: q.date_start ? `${q.date_start} 00:00:00` : undefined, to: q.date_end ? `${q.date_end} 23:59:59` : undefined };
  const { rows, total } = await listSessions(ctx.store.db, auth.scope, range, q);
  const counts = await callCounts(
    ctx.store.db,
    rows.map((r) => r.id),
  );
  return { records: rows.map((s) => toSessionRecord(s, counts.get(s.id) ?? 0)), total };
}

export async function visibleSession(ctx: Context, auth: AuthContext, id: number) {
  const session = await findVisibleSession(ctx.store.db, auth.scope, id);
  if (!session) throw notFound(`There is no dial session ${id}.`);
  return session;
}

/** One session with a page of its calls; the paging fields page through the calls. */
export async function sessionWithCalls(ctx: Context, auth: AuthContext, id: number, q: z.output<typeof dialSessionQuery>) {
  const session = await visibleSession(ctx, auth, id);
  const { rows, total } = await listCalls(ctx.store.db, session.id, q);
  return { record: { ...toSessionRecord(session, total), calls: rows.map((c) => toCallRecord(c, q.include_recording)) }, total };
}

export async function callRecord(ctx: Context, auth: AuthContext, callId: number, q: z.output<typeof callQuery>) {
  const call = await findVisibleCall(ctx.store.db, auth.scope, callId);
  if (!call) throw notFound(`There is no call ${callId}.`);
  return toCallRecord(call, q.include_recording);
}

const dayMs = 86_400_000;

/** The contract's seven figures per member of the caller's team, from the stored calls; talk time in minutes. */
export async function usage(ctx: Context, auth: AuthContext, q: z.output<typeof usageQuery>): Promise<Record<string, UsageRecord>> {
  const [start, end] = [Date.parse(`${q.date_start}T00:00:00Z`), Date.parse(`${q.date_end}T00:00:00Z`)];
  if (end < start) throw badRequest([{ code: Codes.invalidField, field: 'date_end', reason: 'date_end must not be before date_start.' }]);
  if ((end - start) / dayMs > MAX_USAGE_DAYS) {
    throw forbidden(`date_end may be at most ${MAX_USAGE_DAYS} days after date_start; ask for longer periods in 90-day windows.`);
  }
  const memberIds = auth.scope.kind === 'team' ? auth.scope.memberIds : null;
  const filter = memberIds ? { orgId: auth.scope.orgId, ids: memberIds } : { orgId: auth.scope.orgId };
  const [members, rows] = await Promise.all([
    listMembers(ctx.store.db, filter, { page: 1, page_size: 10_000 }),
    usageOf(ctx.store.db, auth.scope.orgId, memberIds, `${q.date_start} 00:00:00`, `${q.date_end} 23:59:59`),
  ]);
  const byMember = new Map(rows.map((r) => [r.member_id, r]));
  return Object.fromEntries(
    members.rows.map((m) => {
      const r = byMember.get(m.id);
      const talktime = Math.round((r?.talk_seconds ?? 0) / 60);
      return [
        String(m.id),
        {
          sessions: r?.sessions ?? 0,
          calls: r?.calls ?? 0,
          connected: r?.connected ?? 0,
          voicemail: r?.voicemail ?? 0,
          emails: r?.emails ?? 0,
          talktime,
          avg_talktime: r?.connected ? Math.round(r.talk_seconds / 60 / r.connected) : 0,
        },
      ];
    }),
  );
}
