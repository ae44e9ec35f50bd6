/*
 * The voicemail library (GET, POST /rest/1/voicemails; PUT, DELETE /rest/1/voicemails/{recording_id}).
 * Browser-safe: zod only. The upload's audio is the request body itself; its name comes in the query.
 */
import { z } from 'zod';
import { query, text } from './common.js';

/** What an upload may be: checked on the bytes received and on the decoded audio (docs/api.md). */
export const VOICEMAIL_LIMITS = { maxBytes: 12 * 1024 * 1024, maxSeconds: 120, maxName: 100 } as const;

const name = text(VOICEMAIL_LIMITS.maxName).pipe(z.string().min(1, { error: 'must not be empty' }));

export const uploadVoicemailQuery = z.object({ name: query.value(name) });
export const renameVoicemailBody = z.object({ name });

/** A voicemail as the API answers it: the contract's fields, then extensions (docs/api.md). */
export type VoicemailRecord = {
  recording_id: string;
  name: string;
  playback_url: string;
  created_when: string;
  duration_seconds: number;
  /** Extensions: exact length, who recorded it, whether the system gave it, whether the caller may change it. */
  duration_ms: number;
  member_id: string | null;
  member_name: string | null;
  system: '0' | '1';
  can_edit: '0' | '1';
};
