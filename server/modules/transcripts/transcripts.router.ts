import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import type { Store } from '../../db/database.js';
import { type TranscriptRecord, transcriptIdParam } from '../../contracts/dial-sessions.js';
import type { Transcript } from '../../db/schema.js';
import { sendSuccess } from '../../lib/envelope.js';
import { notFound } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { transcriptSummary } from '../dial-sessions/dial-sessions.serializer.js';
import { findVisibleTranscript } from './transcripts.repository.js';

export type TranscriptsRouterDeps = { store: Store };

/**
 * The full segmented transcript: the contract's GET /api/rest/transcript/{transcript_id} (mounted there and at
 * /rest/1/transcripts/{id}), authorised like its call. Its shape is ours (the contract does not show it): the summary
 * object's fields, then the segments with speaker, start, end, text and words with times (seconds), its status and,
 * when it has none to show, why.
 */
export function transcriptsRouter(ctx: TranscriptsRouterDeps): Router {
  const router = Router();
  router.get(['/transcript/:transcript_id', '/transcripts/:transcript_id'], async (req, res) => {
    const { transcript_id } = parse(transcriptIdParam, req.params);
    const transcript = await findVisibleTranscript(ctx.store.db, authOf(req).scope, transcript_id);
    if (!transcript) throw notFound(`There is no transcript ${transcript_id}.`);
    sendSuccess(res, 200, 'transcript', toTranscriptRecord(transcript));
  });
  return router;
}

type Segment = {
  speaker_label: 'member' | 'contact';
  start: number;
  end: number;
  text: string;
  words: TranscriptRecord['segments'][number]['words'];
};

export function toTranscriptRecord(t: Transcript): TranscriptRecord {
  const segments = t.segments ? (JSON.parse(t.segments) as Segment[]) : [];
  const summary = transcriptSummary({
    transcript_id: t.id,
    transcript_status: t.status,
    summary: t.summary,
    talk_member_ms: t.talk_member_ms,
    talk_contact_ms: t.talk_contact_ms,
  });
  return {
    ...summary,
    status: t.status,
    call_id: String(t.call_id),
    reason: t.reason,
    engine: t.engine,
    duration: t.duration_ms / 1000,
    segments: segments.map((s) => ({ speaker: s.speaker_label === 'member' ? 'Member' : 'Contact', ...s })),
    created_at: t.created_at,
    completed_at: t.completed_at,
  };
}
