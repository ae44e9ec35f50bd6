import type { z } from 'zod';
import type { Store } from '../../db/database.js';
import type { Config } from '../../config.js';
import {
  type callQuery,
  type dialSessionQuery,
  type listDialSessionsQuery,
  MAX_USAGE_DAYS,
  type usageBreakdownQuery,
  type UsageDayRecord,
  type UsageDispositionRecord,
  type UsageRecord,
  type usageQuery,
} from '../../contracts/dial-sessions.js';
import { scopeOfOwner } from '../contacts/contacts.service.js';
import { findMemberOfRecord } from '../../auth/auth.repository.js';
import { type AuthContext, scopeIncludesMember } from '../../auth/access.js';
import { listMembers } from '../members/members.repository.js';
import { forbidden, invalidField, notFound, unknownReference } from '../../lib/errors.js';
import { callCounts, findVisibleSession, listSessions } from './dial-sessions.repository.js';
import { type CallWithContact, findVisibleCall, listCalls, usageByDay, usageByDisposition, usageOf } from './calls.repository.js';
import type { Call } from '../../db/schema.js';
import { mediaOfCalls } from '../transcripts/transcripts.repository.js';
import { toCallRecord, toSessionRecord } from './dial-sessions.serializer.js';

/** The store, and the public address that call records' links start with. */
export type DialReadsDeps = { store: Store; config: Pick<Config, 'publicUrl'> };

/** Sessions of the caller and (by the team rules) its team, or of one member of it, newest first, without their calls. */
export async function sessionList(ctx: DialReadsDeps, auth: AuthContext, q: z.output<typeof listDialSessionsQuery>) {
  const filter = {
    from: q.date_start ? `${q.date_start} 00:00:00` : undefined,
    to: q.date_end ? `${q.date_end} 23:59:59` : undefined,
    status: q.status,
  };
  const scope = await scopeOfOwner(ctx.store.db, auth, q.member_id, 'member_id');
  const { rows, total } = await listSessions(ctx.store.db, scope, filter, q);
  const counts = await callCounts(
    ctx.store.db,
    rows.map((r) => r.id),
  );
  return { records: rows.map((s) => toSessionRecord(s, counts.get(s.id) ?? 0)), total };
}

export async function visibleSession(ctx: DialReadsDeps, auth: AuthContext, id: number) {
  const session = await findVisibleSession(ctx.store.db, auth.scope, id);
  if (!session) throw notFound(`There is no dial session ${id}.`);
  return session;
}

/** One session with a page of its calls; the paging fields page through the calls. */
export async function sessionWithCalls(ctx: DialReadsDeps, auth: AuthContext, id: number, q: z.output<typeof dialSessionQuery>) {
  const session = await visibleSession(ctx, auth, id);
  const { rows, total } = await listCalls(ctx.store.db, session.id, q);
  return { record: { ...toSessionRecord(session, total), calls: await callRecords(ctx, rows, q) }, total };
}

export async function callRecord(ctx: DialReadsDeps, auth: AuthContext, callId: number, q: z.output<typeof callQuery>) {
  const call = await findVisibleCall(ctx.store.db, auth.scope, callId);
  if (!call) throw notFound(`There is no call ${callId}.`);
  return (await callRecords(ctx, [call], q))[0]!;
}

/** Call records for a page of calls, with what became of their recordings and transcripts (one query for the page). */
export async function callRecords(
  ctx: DialReadsDeps,
  calls: (Call | CallWithContact)[],
  q: { include_recording: boolean; include_transcript: boolean },
) {
  const media = await mediaOfCalls(
    ctx.store.db,
    calls.map((c) => c.id),
  );
  const view = { includeRecording: q.include_recording, includeTranscript: q.include_transcript, publicUrl: ctx.config.publicUrl };
  return calls.map((c) => toCallRecord(c, view, media.get(c.id)));
}

const dayMs = 86_400_000;

/** The days a usage read covers, each 'YYYY-MM-DD': the end not before the start, at most 90 days after it (beyond is forbidden, not invalid: docs/api.md). */
function daysOf(q: z.output<typeof usageQuery>): string[] {
  const [start, end] = [Date.parse(`${q.date_start}T00:00:00Z`), Date.parse(`${q.date_end}T00:00:00Z`)];
  if (end < start) throw invalidField('date_end', 'date_end must not be before date_start.');
  if ((end - start) / dayMs > MAX_USAGE_DAYS) {
    throw forbidden(`date_end may be at most ${MAX_USAGE_DAYS} days after date_start; ask for longer periods in 90-day windows.`);
  }
  return Array.from({ length: (end - start) / dayMs + 1 }, (_, i) => new Date(start + i * dayMs).toISOString().slice(0, 10));
}

/**
 * Whose figures a read covers: the caller's team (null: the vendor's whole organisation), or only `member_id`, which
 * must be in it (a member removed since still is: its history stays its own); anyone else is a 400 naming member_id.
 */
async function membersOf(ctx: DialReadsDeps, auth: AuthContext, memberId: number | undefined): Promise<number[] | null> {
  if (memberId === undefined) return auth.scope.kind === 'team' ? auth.scope.memberIds : null;
  const member = await findMemberOfRecord(ctx.store.db, memberId);
  if (!member || !scopeIncludesMember(auth.scope, member))
    throw unknownReference('member_id', `member_id ${memberId} is not a member of your team.`);
  return [member.id];
}

/** Calls, connected calls, voicemails and talk minutes per UTC day of the range, every day there (zeros included), oldest first. */
export async function usagePerDay(
  ctx: DialReadsDeps,
  auth: AuthContext,
  q: z.output<typeof usageBreakdownQuery>,
): Promise<UsageDayRecord[]> {
  const days = daysOf(q);
  const memberIds = await membersOf(ctx, auth, q.member_id);
  const byDay = new Map((await usageByDay(ctx.store.db, auth.scope.orgId, memberIds, q.date_start, q.date_end)).map((r) => [r.day, r]));
  return days.map((date) => {
    const r = byDay.get(date);
    return {
      date,
      calls: r?.calls ?? 0,
      connected: r?.connected ?? 0,
      voicemail: r?.voicemail ?? 0,
      talktime_minutes: Math.round((r?.talk_seconds ?? 0) / 60),
    };
  });
}

/** Calls per disposition label over the range, most first; calls not dispositioned yet under ''. */
export async function usagePerDisposition(
  ctx: DialReadsDeps,
  auth: AuthContext,
  q: z.output<typeof usageBreakdownQuery>,
): Promise<UsageDispositionRecord[]> {
  daysOf(q);
  return usageByDisposition(ctx.store.db, auth.scope.orgId, await membersOf(ctx, auth, q.member_id), q.date_start, q.date_end);
}

/** The contract's seven figures per member of the caller's team, from the per-day figures kept with the calls; talk time in minutes. */
export async function usage(ctx: DialReadsDeps, auth: AuthContext, q: z.output<typeof usageQuery>): Promise<Record<string, UsageRecord>> {
  daysOf(q);
  const memberIds = auth.scope.kind === 'team' ? auth.scope.memberIds : null;
  const filter = memberIds ? { orgId: auth.scope.orgId, ids: memberIds } : { orgId: auth.scope.orgId };
  const [members, rows] = await Promise.all([
    listMembers(ctx.store.db, filter, { page: 1, page_size: 10_000 }),
    usageOf(ctx.store.db, auth.scope.orgId, memberIds, q.date_start, q.date_end),
  ]);
  const byMember = new Map(rows.map((r) => [r.member_id, r]));
  // Present members, and members removed since whose calls fall in the range: their history stays theirs.
  const ids = [...new Set([...members.rows.map((m) => m.id), ...rows.map((r) => r.member_id)])];
  return Object.fromEntries(
    ids.map((id) => {
      const r = byMember.get(id);
      const talktime = Math.round((r?.talk_seconds ?? 0) / 60);
      return [
        String(id),
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
