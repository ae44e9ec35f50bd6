import { type AuthContext, requireVendor } from '../../auth/access.js';
import { setSecret } from '../../callbacks/outbox.repository.js';
import { newCallbackSecret } from '../../callbacks/signing.js';
import type { Db, Store } from '../../db/database.js';
import { type DialSettings, type DialSettingsRecord, MESSAGE_KEYS, type UpdateDialSettingsBody } from '../../contracts/dial-settings.js';
import { invalidField, invalidFields } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import {
  callbackSecretOf,
  knownMessageIds,
  recordingSettingsOf,
  type RecordingSettings,
  saveRecordingSettings,
  saveSettings,
  settingsOf,
} from './dial-settings.repository.js';

export type DialSettingsDeps = { store: Store };

const flag = (v: boolean) => (v ? '1' : '0');

async function present(
  ctx: DialSettingsDeps,
  auth: AuthContext,
  s: DialSettings,
  recording: RecordingSettings,
): Promise<DialSettingsRecord> {
  const record = {
    dialsecs: String(s.dialsecs),
    ringing: flag(s.ringing),
    emails: flag(s.emails),
    ...Object.fromEntries(MESSAGE_KEYS.map((k) => [k, s.messages[k] === undefined ? null : String(s.messages[k])])),
    calltime_min: s.calltime_min,
    calltime_max: s.calltime_max,
    connectme_preset: s.connectme_preset,
    send_skips: flag(s.send_skips),
    record_calls: flag(recording.recordCalls),
    recording_retention_days: String(recording.retentionDays),
  } as DialSettingsRecord;
  // The signing secret is the organisation's: only its vendor reads it.
  if (auth.member.role === 'vendor') record.callback_secret = (await callbackSecretOf(ctx.store.db, auth.member.org_id)) ?? '';
  return record;
}

export async function getSettings(ctx: DialSettingsDeps, auth: AuthContext) {
  const db = ctx.store.db;
  return present(ctx, auth, await settingsOf(db, auth.member.id), await recordingSettingsOf(db, auth.member.org_id));
}

/**
 * Changes the keys given; message keys must name messages of the library; 'rotate' makes a new callback secret; the
 * recording settings are the organisation's, changed by its vendor only.
 */
export async function updateSettings(ctx: DialSettingsDeps, auth: AuthContext, body: UpdateDialSettingsBody) {
  if (body.callback_secret) requireVendor(auth, 'rotate the callback secret');
  if (body.record_calls !== undefined || body.recording_retention_days !== undefined)
    requireVendor(auth, 'change whether calls are recorded and how long recordings are kept');
  const { updated, recording } = await ctx.store.write(async (tx) => {
    const current = await settingsOf(tx, auth.member.id);
    const messages = { ...current.messages };
    for (const key of MESSAGE_KEYS) {
      const value = body[key];
      if (value === null) delete messages[key];
      else if (value !== undefined) messages[key] = value;
    }
    await assertMessages(tx, auth.member.org_id, body, current.messages);
    const next: DialSettings = {
      dialsecs: body.dialsecs ?? current.dialsecs,
      ringing: body.ringing ?? current.ringing,
      emails: body.emails ?? current.emails,
      messages,
      calltime_min: body.calltime_min ?? current.calltime_min,
      calltime_max: body.calltime_max ?? current.calltime_max,
      connectme_preset: body.connectme_preset === undefined ? current.connectme_preset : body.connectme_preset,
      send_skips: body.send_skips ?? current.send_skips,
    };
    if (next.calltime_min > next.calltime_max) throw windowError(body, next);
    const at = now();
    await saveSettings(tx, auth.member.id, next, at);
    if (body.callback_secret === 'rotate')
      await setSecret(tx, auth.member.org_id, newCallbackSecret(), await callbackSecretOf(tx, auth.member.org_id), at);
    return { updated: next, recording: await updateRecordingSettings(tx, auth.member.org_id, body) };
  });
  return present(ctx, auth, updated, recording);
}

/** Writes only the keys given (one statement), so two vendors changing one key each both keep theirs. */
async function updateRecordingSettings(tx: Db, orgId: number, body: UpdateDialSettingsBody): Promise<RecordingSettings> {
  if (body.record_calls !== undefined || body.recording_retention_days !== undefined) {
    await saveRecordingSettings(tx, orgId, { recordCalls: body.record_calls, retentionDays: body.recording_retention_days });
  }
  return recordingSettingsOf(tx, orgId);
}

/** Names the end of the calling window the request moved: the one given, or calltime_max when both were. */
function windowError(body: UpdateDialSettingsBody, next: DialSettings) {
  return body.calltime_max === undefined
    ? invalidField('calltime_min', `calltime_min must not be later than calltime_max (${next.calltime_max}).`)
    : invalidField('calltime_max', `calltime_max must not be earlier than the earliest time to call (${next.calltime_min}).`);
}

/**
 * Message ids given must name messages of the library, except one a key already holds: a message deleted since stays
 * chosen (it sends nothing) and saving the other settings, which repeats it, still works.
 */
async function assertMessages(tx: Db, orgId: number, body: UpdateDialSettingsBody, saved: DialSettings['messages']) {
  const given = MESSAGE_KEYS.flatMap((key) =>
    typeof body[key] === 'number' && body[key] !== saved[key] ? [[key, body[key]] as const] : [],
  );
  const known = await knownMessageIds(
    tx,
    orgId,
    given.map(([, id]) => id),
  );
  const unknown = given.filter(([, id]) => !known.has(id));
  if (unknown.length) {
    throw invalidFields(
      unknown.map(([key, id]) => ({
        kind: 'unknown_reference',
        field: key,
        reason: `${key} ${id} is not a message of your library (GET /rest/1/content).`,
      })),
    );
  }
}
