import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { contentQuery, recordingIdParam } from '../../contracts/dial-sessions.js';
import { sendAudio } from '../../lib/audio-response.js';
import { notFound } from '../../lib/errors.js';
import { pageMeta, sendList, sendNoContent, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { renameVoicemailBody } from '../../contracts/voicemails.js';
import { createMessageBody, messageIdParam, updateMessageBody } from '../../contracts/content.js';
import { createMessage, deleteMessage, findContentRecord, toContentRecord, updateMessage } from './messages.service.js';
import { deleteVoicemail, findVoicemailRecord, renameVoicemail, toVoicemailRecord, type VoicemailsDeps } from './voicemails.service.js';
import { dispositionSets, dispositionsOf, listMessages, listVoicemails, voicemailAudio } from './dial-library.repository.js';

const everything = (n: number) => pageMeta({ page: 1, page_size: Math.max(1, n) }, n);

/** The message library, voicemail recordings and disposition sets a dial session draws on. */
export function dialLibraryRouter(ctx: VoicemailsDeps): Router {
  const router = Router();
  const { db } = ctx.store;

  router.get('/content', async (req, res) => {
    const auth = authOf(req);
    const q = parse(contentQuery, req.query);
    const rows = await listMessages(db, auth.scope.orgId, q.type, q.list);
    const emails = rows.map((m) => toContentRecord(auth, m));
    sendSuccess(res, 200, 'content', { emails, ...everything(emails.length) });
  });

  /* Extensions: the member's own messages (docs/api.md, "Message library"). */
  router.post('/content', async (req, res) => {
    const auth = authOf(req);
    const id = await createMessage(ctx, auth, parse(createMessageBody, req.body));
    sendSuccess(res, 201, 'content', await findContentRecord(ctx, auth, id));
  });

  router.get('/content/:message_id', async (req, res) => {
    const { message_id } = parse(messageIdParam, req.params);
    sendSuccess(res, 200, 'content', await findContentRecord(ctx, authOf(req), message_id));
  });

  router.put('/content/:message_id', async (req, res) => {
    const auth = authOf(req);
    const { message_id } = parse(messageIdParam, req.params);
    await updateMessage(ctx, auth, message_id, parse(updateMessageBody, req.body));
    sendSuccess(res, 200, 'content', await findContentRecord(ctx, auth, message_id));
  });

  router.delete('/content/:message_id', async (req, res) => {
    const { message_id } = parse(messageIdParam, req.params);
    await deleteMessage(ctx, authOf(req), message_id);
    sendNoContent(res);
  });

  router.get('/voicemails', async (req, res) => {
    const auth = authOf(req);
    const rows = await listVoicemails(db, auth.scope.orgId);
    sendList(
      res,
      'voicemails',
      rows.map((v) => toVoicemailRecord(ctx.config.publicUrl, auth, v)),
      everything(rows.length),
    );
  });

  /* POST /voicemails (upload) reads its own body: voicemail-upload.router.ts. */

  router.put('/voicemails/:recording_id', async (req, res) => {
    const auth = authOf(req);
    const { recording_id } = parse(recordingIdParam, req.params);
    await renameVoicemail(ctx, auth, recording_id, parse(renameVoicemailBody, req.body).name);
    sendSuccess(res, 200, 'voicemails', await findVoicemailRecord(ctx, auth, recording_id));
  });

  router.delete('/voicemails/:recording_id', async (req, res) => {
    const { recording_id } = parse(recordingIdParam, req.params);
    await deleteVoicemail(ctx, authOf(req), recording_id);
    sendNoContent(res);
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
