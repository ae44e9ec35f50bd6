import { type AuthContext, isVendor, scopeIncludesMember } from '../../auth/access.js';
import { AudioDecodeError } from '../../audio/pcm.js';
import { normalizeVoicemail, VoicemailAudioError } from '../../audio/voicemail-audio.js';
import type { Config } from '../../config.js';
import { VOICEMAIL_LIMITS, type VoicemailRecord } from '../../contracts/voicemails.js';
import type { Db, Store } from '../../db/database.js';
import { type DomainError, forbidden, missingField, notFound, unprocessable, unsupportedContent } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import * as repo from './dial-library.repository.js';

export type VoicemailsDeps = { store: Store; config: Pick<Config, 'publicUrl'> };

/*
 * Who may change a recording: the vendor any of its organisation's; a manager its own and its team's; a member its
 * own. The system's starter greeting, and a recording whose member was removed, only the vendor. Everyone in the
 * organisation lists, plays and drops every recording. Another organisation's is 404.
 */
function mayChange(auth: AuthContext, row: { org_id: number; member_id: number | null; system: number }): boolean {
  if (isVendor(auth.member)) return true;
  return !row.system && row.member_id !== null && scopeIncludesMember(auth.scope, { id: row.member_id, org_id: row.org_id });
}

export function toVoicemailRecord(publicUrl: string, auth: AuthContext, v: repo.VoicemailRow): VoicemailRecord {
  const maker = v.username === null ? null : `${v.first_name ?? ''} ${v.last_name ?? ''}`.trim() || v.username;
  return {
    recording_id: String(v.id),
    name: v.name,
    playback_url: `${publicUrl}/rest/1/voicemails/${v.id}/audio`,
    created_when: v.created_at,
    duration_seconds: Math.round(v.duration_ms / 1000),
    duration_ms: v.duration_ms,
    member_id: v.member_id === null ? null : String(v.member_id),
    member_name: maker,
    system: v.system ? '1' : '0',
    can_edit: mayChange(auth, v) ? '1' : '0',
  };
}

export async function findVoicemailRecord(ctx: VoicemailsDeps, auth: AuthContext, id: number): Promise<VoicemailRecord> {
  const row = await repo.findVoicemailWithMaker(ctx.store.db, auth.member.org_id, id);
  if (!row) throw notFound(`There is no voicemail recording ${id}.`);
  return toVoicemailRecord(ctx.config.publicUrl, auth, row);
}

/** Why an upload is refused, in the API's words: nothing is stored. */
function refusal(error: unknown): DomainError {
  if (error instanceof AudioDecodeError) {
    if (error.reason === 'empty') return missingField('body', 'The request body is empty: send the audio file as the body.');
    return unsupportedContent(
      'body',
      `The body is not a recording this server can read: ${error.message}. Send WAV, MP3, Ogg, WebM, FLAC or M4A audio.`,
    );
  }
  if (error instanceof VoicemailAudioError) return unprocessable('body', `The voicemail was refused: ${error.message}.`);
  throw error;
}

export async function uploadVoicemail(ctx: Pick<VoicemailsDeps, 'store'>, auth: AuthContext, name: string, bytes: Buffer): Promise<number> {
  const audio = await normalizeVoicemail(bytes, VOICEMAIL_LIMITS.maxSeconds).catch((error: unknown) => Promise.reject(refusal(error)));
  const row = await ctx.store.write((tx) =>
    repo.insertVoicemail(tx, {
      org_id: auth.member.org_id,
      member_id: auth.member.id,
      name,
      content_type: audio.contentType,
      audio: audio.audio,
      duration_ms: audio.durationMs,
      created_at: now(),
    }),
  );
  return row.id;
}

/** The recording as the caller may change it; its owner never changes, so the check holds for the write that follows. */
async function changeable(tx: Db, auth: AuthContext, id: number) {
  const row = await repo.findVoicemail(tx, auth.member.org_id, id);
  if (!row) throw notFound(`There is no voicemail recording ${id}.`);
  if (!mayChange(auth, row)) {
    throw forbidden(
      row.system || row.member_id === null
        ? "Only the organisation's vendor account can change this recording."
        : "You can change your own recordings (and a manager its team's), not this one.",
    );
  }
}

export async function renameVoicemail(ctx: Pick<VoicemailsDeps, 'store'>, auth: AuthContext, id: number, name: string): Promise<void> {
  await ctx.store.write(async (tx) => {
    await changeable(tx, auth, id);
    if (!(await repo.renameVoicemail(tx, auth.member.org_id, id, name))) throw notFound(`There is no voicemail recording ${id}.`);
  });
}

/**
 * No setting points at a recording (a session names one per drop, and a call keeps the name it dropped), so a
 * delete takes it out of the library and nothing else; a drop already playing it plays silence from then on.
 */
export async function deleteVoicemail(ctx: Pick<VoicemailsDeps, 'store'>, auth: AuthContext, id: number): Promise<void> {
  await ctx.store.write(async (tx) => {
    await changeable(tx, auth, id);
    if (!(await repo.deleteVoicemail(tx, auth.member.org_id, id))) throw notFound(`There is no voicemail recording ${id}.`);
  });
}
