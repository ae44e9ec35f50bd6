import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { Store } from '../../db/database.js';
import type { RecordingStore } from '../../recordings/store.js';
import { callIdParam } from '../../contracts/dial-sessions.js';
import { sendAudioStream } from '../../lib/audio-response.js';
import { notFound } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { findVisibleRecording } from './recordings.repository.js';

export type RecordingsRouterDeps = { store: Store; recordings: { store: RecordingStore } };

/**
 * A call's recording (extension; the contract's include_recording gives its address): Ogg Opus, two channels (the
 * member left, the contact right), streamed with HTTP Range, to whoever may see the call (team rules; 404 otherwise).
 */
export function recordingsRouter(ctx: RecordingsRouterDeps): Router {
  const router = Router();

  router.get('/dialsession/call/:call_id/recording', async (req, res) => {
    const { call_id } = parse(callIdParam, req.params);
    const recording = await findVisibleRecording(ctx.store.db, authOf(req).scope, call_id);
    if (!recording || recording.state !== 'stored' || !recording.storage_key) {
      throw notFound(
        recording?.state === 'announced' || recording?.state === 'expected'
          ? `The recording of call ${call_id} is still being stored; try again in a moment.`
          : `There is no recording of call ${call_id}.`,
      );
    }
    const key = recording.storage_key;
    const size = await ctx.recordings.store.size(key);
    if (size === undefined) throw notFound(`There is no recording of call ${call_id}.`);
    sendAudioStream(req.get('range'), res, size, recording.content_type, (span) => ctx.recordings.store.read(key, span));
  });

  return router;
}
