import { Router } from 'express';
import parseRange from 'range-parser';
import { authOf } from '../../auth/middleware.js';
import type { Context } from '../../context.js';
import { contentQuery, recordingIdParam } from '../../contracts/dial-sessions.js';
import { ApiError, Codes, notFound } from '../../lib/errors.js';
import { pageMeta, sendList, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { dispositionSets, dispositionsOf, listMessages, listVoicemails, voicemailAudio } from './dial-library.repository.js';

const everything = (n: number) => pageMeta({ page: 1, page_size: Math.max(1, n) }, n);

/** The message library, voicemail recordings and disposition sets a dial session draws on. */
export function dialLibraryRouter(ctx: Context): Router {
  const router = Router();
  const { db } = ctx.store;

  router.get('/content', async (req, res) => {
    const auth = authOf(req);
    const q = parse(contentQuery, req.query);
    const rows = await listMessages(db, auth.scope.orgId, q.type, q.list);
    const emails = rows.map((m) => ({
      cm_content_id: String(m.id),
      display_name: m.display_name,
      description: m.description,
      message_id: String(m.id),
      display_order: String(m.display_order),
      system_message: m.org_id === null ? 1 : 0,
      type: m.type,
    }));
    sendSuccess(res, 200, 'content', { emails, ...everything(emails.length) });
  });

  router.get('/voicemails', async (req, res) => {
    const rows = await listVoicemails(db, authOf(req).scope.orgId);
    sendList(
      res,
      'voicemails',
      rows.map((v) => ({
        recording_id: String(v.id),
        name: v.name,
        playback_url: `${ctx.config.publicUrl}/rest/1/voicemails/${v.id}/audio`,
        created_when: v.created_at,
        duration_seconds: Math.round(v.duration_ms / 1000),
      })),
      everything(rows.length),
    );
  });

  router.get('/voicemails/:recording_id/audio', async (req, res) => {
    const { recording_id } = parse(recordingIdParam, req.params);
    const audio = await voicemailAudio(db, authOf(req).scope.orgId, recording_id);
    if (!audio) throw notFound(`There is no voicemail recording ${recording_id}.`);
    sendAudio(req.get('range'), res, audio.audio, audio.content_type);
  });

  router.get('/dispositions', async (req, res) => {
    const sets = await dispositionSets(db, authOf(req).scope.orgId);
    const statuses = await dispositionsOf(
      db,
      sets.map((s) => s.id),
    );
    const records = sets.map((set) => ({
      disposition_set_id: String(set.id),
      name: set.name,
      type: set.kind === 'dialing' ? 'dialing' : 'live_answer',
      system: set.org_id === null ? '1' : '0',
      statuses: statuses
        .filter((d) => d.set_id === set.id)
        .map((d) => ({
          disposition_id: String(d.id),
          status: d.label,
          key: d.status_key,
          connected: d.connected ? '1' : '0',
          shortcut: d.shortcut,
        })),
    }));
    sendList(res, 'dispositions', records, everything(records.length));
  });

  return router;
}

/**
 * Serves a recording whole, or the byte range asked for (audio players seek with Range requests). The audio headers
 * go on audio only: a refusal is the JSON error envelope, uncached like every other answer of the API.
 */
function sendAudio(range: string | undefined, res: import('express').Response, audio: Buffer, contentType: string) {
  const ranges = range ? parseRange(audio.length, range, { combine: true }) : -2;
  if (ranges === -1) {
    throw new ApiError(
      416,
      [{ code: Codes.rangeNotSatisfiable, reason: `The range asked for is outside the recording's ${audio.length} bytes.` }],
      { 'Content-Range': `bytes */${audio.length}` },
    );
  }
  res.set({ 'Content-Type': contentType, 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, max-age=3600' });
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) {
    res.status(200).end(audio);
    return;
  }
  const { start, end } = ranges[0]!;
  res
    .status(206)
    .set('Content-Range', `bytes ${start}-${end}/${audio.length}`)
    .end(audio.subarray(start, end + 1));
}
