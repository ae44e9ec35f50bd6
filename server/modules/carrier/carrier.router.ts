import express, { Router } from 'express';
import { verifySignature } from '../../callbacks/signing.js';
import { carrierEventBody } from '../../carrier/protocol.js';
import { checkMediaSignature } from '../../carrier/secret.js';
import { DomainError, notFound } from '../../lib/errors.js';
import { ApiError, Codes } from '../../lib/http-errors.js';
import { parse } from '../../lib/validate.js';
import { findVoicemailAudio } from '../dial-library/dial-library.repository.js';
import { sendAudio } from '../../lib/audio-response.js';
import { applyCarrierEvent, type CarrierEventsDeps } from './carrier-events.service.js';

/*
 * The carrier's side door: its status callbacks (signed with the carrier secret, Standard Webhooks), and the media it
 * plays into calls (a signed, short-lived link per voicemail). Nothing else of the API is reachable this way.
 */
export function carrierRouter(ctx: CarrierEventsDeps): Router {
  const router = Router();

  router.post('/events', express.text({ type: () => true, limit: '64kb' }), async (req, res) => {
    const raw = typeof req.body === 'string' ? req.body : '';
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    if (!verifySignature(ctx.dialer.carrierSecret, headers, raw))
      throw new DomainError('unknown_token', 'The carrier event is not signed with the carrier secret.');
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ApiError(400, [{ code: Codes.malformedBody, field: 'body', reason: 'The carrier event is not valid JSON.' }]);
    }
    await applyCarrierEvent(ctx, parse(carrierEventBody, json));
    res.status(204).end();
  });

  router.get('/media/voicemails/:id', async (req, res) => {
    const id = req.params.id;
    if (
      !/^\d{1,15}$/.test(id) ||
      !checkMediaSignature(ctx.dialer.carrierSecret, `/carrier/media/voicemails/${id}`, req.query.expires, req.query.signature)
    ) {
      throw notFound('There is no such recording.');
    }
    const audio = await findVoicemailAudio(ctx.store.db, Number(id));
    if (!audio) throw notFound('There is no such recording.');
    res.setHeader('Cache-Control', 'no-store');
    sendAudio(req.get('range'), res, audio.audio, audio.content_type);
  });

  return router;
}
