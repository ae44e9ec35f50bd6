import express, { type RequestHandler, Router } from 'express';
import { authenticate, authOf, type AuthenticateDeps } from '../../auth/middleware.js';
import { uploadVoicemailQuery, VOICEMAIL_LIMITS } from '../../contracts/voicemails.js';
import { ApiError, Codes } from '../../lib/http-errors.js';
import { sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { findVoicemailRecord, uploadVoicemail, type VoicemailsDeps } from './voicemails.service.js';

const MB = VOICEMAIL_LIMITS.maxBytes / 1024 / 1024;
const NOT_A_FILE = ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'];

const readRaw = express.raw({ type: () => true, limit: VOICEMAIL_LIMITS.maxBytes });

/** The audio file is the body itself, of any type (the bytes decide), up to the size limit. */
const readAudioBody: RequestHandler = (req, res, next) => {
  if (req.is(NOT_A_FILE)) {
    throw new ApiError(415, [
      {
        code: Codes.unsupportedMediaType,
        field: 'body',
        reason: `Send the audio file itself as the body (Content-Type: audio/wav, audio/webm...), with the name in the query (?name=...), not ${req.get('content-type')}.`,
      },
    ]);
  }
  readRaw(req, res, (error?: { type?: string }) => {
    if (error?.type === 'entity.too.large') {
      return next(
        new ApiError(413, [
          { code: Codes.payloadTooLarge, field: 'body', reason: `The file is larger than ${MB} MB, the most a voicemail upload may be.` },
        ]),
      );
    }
    next(error);
  });
};

/**
 * POST /rest/1/voicemails reads its own body (audio, up to 12 MB) after authentication, so it is mounted before the
 * API's JSON and form parsers (app.ts), which refuse any other type.
 */
export function voicemailUploadRouter(ctx: VoicemailsDeps & AuthenticateDeps): Router {
  const router = Router();
  const nameFirst: RequestHandler = (req, _res, next) => {
    parse(uploadVoicemailQuery, req.query);
    next();
  };
  router.post('/voicemails', authenticate(ctx), nameFirst, readAudioBody, async (req, res) => {
    const auth = authOf(req);
    const { name } = parse(uploadVoicemailQuery, req.query);
    const id = await uploadVoicemail(ctx, auth, name, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    sendSuccess(res, 201, 'voicemails', await findVoicemailRecord(ctx, auth, id));
  });
  return router;
}
