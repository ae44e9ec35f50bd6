import { createSession } from 'better-sse';
import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { OpenStreams } from '../../auth/open-streams.js';
import type { DialEventHub } from './dial-events.js';
import {
  CONTACT_LIMIT,
  callActionBody,
  callIdParam,
  callQuery,
  createDialSessionBody,
  dialActionParam,
  dialSessionIdParam,
  dialSessionQuery,
  dispositionActionBody,
  eventsQuery,
  listDialSessionsQuery,
  noteActionBody,
  usageBreakdownQuery,
  usageQuery,
  voicemailActionBody,
} from '../../contracts/dial-sessions.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { oneOfOne, pageMeta, sendList, sendSuccess, wholeList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { settingsOf } from '../dial-settings/dial-settings.repository.js';
import {
  callRecord,
  sessionList,
  sessionWithCalls,
  usage,
  usagePerDay,
  usagePerDisposition,
  visibleSession,
} from './dial-reads.service.js';
import { lastEventId } from './dial-events.repository.js';
import { ownSession, perform, snapshot, type DialLiveDeps } from './dial-live.service.js';
import { createDialSession, type DialSessionsDeps } from './dial-sessions.service.js';
import { forecastBody } from './session-forecast.js';

/** The services' parts, and this process's event streams: the hub they read from and the open streams' register. */
export type DialSessionsRouterDeps = DialLiveDeps &
  DialSessionsDeps & { streams: Pick<OpenStreams, 'open'>; dialer: { events: Pick<DialEventHub, 'subscribe' | 'flush'> } };

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function dialSessionsRouter(ctx: DialSessionsRouterDeps): Router {
  const router = Router();
  const { db } = ctx.store;

  router.post('/dialsession', async (req, res) => {
    const auth = authOf(req);
    const body = parse(createDialSessionBody, req.body);
    const key = req.get('idempotency-key');
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key))
      throw invalidField('Idempotency-Key', 'The Idempotency-Key header must be 1 to 255 visible characters.');
    const { session, redirectUrl, errors, skipped } = await createDialSession(ctx, auth, body, req.body, key);
    sendSuccess(res, 201, 'dialsessions', {
      redirect_url: redirectUrl,
      errors,
      ...pageMeta({ page: 1, page_size: Math.max(1, session.contact_count) }, session.contact_count),
      skipped_contact_count: skipped,
      contact_limit: CONTACT_LIMIT,
      dialsession_id: String(session.id),
    });
  });

  router.post('/dialsession/forecast', async (req, res) => {
    const auth = authOf(req);
    const body = parse(createDialSessionBody, req.body);
    sendSuccess(res, 200, 'forecast', await forecastBody(db, auth, body, await settingsOf(db, auth.member.id)));
  });

  router.get('/dialsession', async (req, res) => {
    const query = parse(listDialSessionsQuery, req.query);
    const { records, total } = await sessionList(ctx, authOf(req), query);
    sendList(res, 'dialsessions', records, pageMeta(query, total));
  });

  router.get('/dialsession/usage', async (req, res) => {
    sendSuccess(res, 200, 'usage', { ...(await usage(ctx, authOf(req), parse(usageQuery, req.query))), ...oneOfOne() });
  });

  router.get('/dialsession/usage/days', async (req, res) => {
    const days = await usagePerDay(ctx, authOf(req), parse(usageBreakdownQuery, req.query));
    sendSuccess(res, 200, 'usage_days', { days, ...wholeList(days.length) });
  });

  router.get('/dialsession/usage/dispositions', async (req, res) => {
    const dispositions = await usagePerDisposition(ctx, authOf(req), parse(usageBreakdownQuery, req.query));
    sendSuccess(res, 200, 'usage_dispositions', { dispositions, ...wholeList(dispositions.length) });
  });

  router.get(['/dialsession/call', '/dialsession/call/:call_id'], async (req, res) => {
    const query = parse(callQuery, req.query);
    const id = req.params.call_id !== undefined ? parse(callIdParam, req.params).call_id : query.call_id;
    if (id === undefined) throw notFound('Name the call: /rest/1/dialsession/call/{call_id} or ?call_id=.');
    sendSuccess(res, 200, 'call', { call: await callRecord(ctx, authOf(req), id, query), ...oneOfOne() });
  });

  router.get('/dialsession/:dialsession_id', async (req, res) => {
    const { dialsession_id } = parse(dialSessionIdParam, req.params);
    const query = parse(dialSessionQuery, req.query);
    const { record, total } = await sessionWithCalls(ctx, authOf(req), dialsession_id, query);
    sendSuccess(res, 200, 'dialsessions', { dialsessions: record, ...pageMeta(query, total) });
  });

  router.get('/dialsession/:dialsession_id/live', async (req, res) => {
    const auth = authOf(req);
    const session = await visibleSession(ctx, auth, parse(dialSessionIdParam, req.params).dialsession_id);
    sendSuccess(res, 200, 'live', await snapshot(ctx, auth, session));
  });

  router.get('/dialsession/:dialsession_id/events', async (req, res) => {
    const auth = authOf(req);
    const session = await visibleSession(ctx, auth, parse(dialSessionIdParam, req.params).dialsession_id);
    const { after } = parse(eventsQuery, req.query);
    const resumeFrom = Number(req.get('last-event-id') ?? after ?? (await lastEventId(db, session.id)));
    // A credential that ends (the member removed, signed out) ends the stream, after what the store holds for it now;
    // not before better-sse has written the head on its first tick (an end first writes a head of its own, and
    // better-sse's then throws outside any request, ending the process).
    let connected = false;
    let endAsked = false;
    const end = () => void ctx.dialer.events.flush().finally(() => res.end());
    const forget = ctx.streams.open(auth, () => (connected ? end() : (endAsked = true)));
    const stream = await createSession(req, res, { keepAlive: 15_000, retry: 1_000, headers: { 'Cache-Control': 'no-store' } }).catch(
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    connected = true;
    if (endAsked) return end();
    const stop = ctx.dialer.events.subscribe(
      session.id,
      Number.isFinite(resumeFrom) ? resumeFrom : 0,
      (row) => stream.push(JSON.parse(row.data), row.type, String(row.id)),
      () => res.end(),
    );
    stream.on('disconnected', () => {
      stop();
      forget();
    });
  });

  router.post('/dialsession/:dialsession_id/:action', async (req, res) => {
    const auth = authOf(req);
    const { dialsession_id, action } = parse(dialActionParam, req.params);
    const body =
      action === 'call'
        ? parse(callActionBody, req.body)
        : action === 'disposition'
          ? parse(dispositionActionBody, req.body)
          : action === 'voicemail'
            ? parse(voicemailActionBody, req.body)
            : action === 'note'
              ? parse(noteActionBody, req.body)
              : {};
    await perform(ctx, auth, dialsession_id, action, body);
    sendSuccess(res, 200, 'live', await snapshot(ctx, auth, await ownSession(ctx, auth, dialsession_id)));
  });

  return router;
}
