import type { Db } from '../../db/database.js';
import { DEFAULT_DIAL_SETTINGS, type DialSettings } from '../../contracts/dial-settings.js';

/** A member's dial settings: what it saved over the defaults. */
export async function settingsOf(db: Db, memberId: number): Promise<DialSettings> {
  const row = await db.selectFrom('dial_settings').select('values').where('member_id', '=', memberId).executeTakeFirst();
  return row ? { ...DEFAULT_DIAL_SETTINGS, ...(JSON.parse(row.values) as Partial<DialSettings>) } : DEFAULT_DIAL_SETTINGS;
}

export async function saveSettings(tx: Db, memberId: number, settings: DialSettings, at: string): Promise<void> {
  const values = JSON.stringify(settings);
  await tx
    .insertInto('dial_settings')
    .values({ member_id: memberId, values, updated_at: at })
    .onConflict((oc) => oc.column('member_id').doUpdateSet({ values, updated_at: at }))
    .execute();
}

/** Those of these message ids that name a message the organisation may use (its own or the system's). */
export async function knownMessageIds(db: Db, orgId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}

export const callbackSecretOf = async (db: Db, orgId: number) =>
  (await db.selectFrom('organisations').select('callback_secret').where('id', '=', orgId).executeTakeFirstOrThrow()).callback_secret;

export type RecordingSettings = { recordCalls: boolean; retentionDays: number };

/** The organisation's recording settings: whether calls are recorded, and how long recordings and transcripts stay. */
export async function recordingSettingsOf(db: Db, orgId: number): Promise<RecordingSettings> {
  const row = await db
    .selectFrom('organisations')
    .select(['record_calls', 'recording_retention_days'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { recordCalls: !!row.record_calls, retentionDays: row.recording_retention_days };
}

/** Sets the settings given and leaves the others as they are. */
export async function saveRecordingSettings(tx: Db, orgId: number, settings: Partial<RecordingSettings>): Promise<void> {
  await tx
    .updateTable('organisations')
    .set({
      ...(settings.recordCalls === undefined ? {} : { record_calls: settings.recordCalls ? 1 : 0 }),
      ...(settings.retentionDays === undefined ? {} : { recording_retention_days: settings.retentionDays }),
    })
    .where('id', '=', orgId)
    .execute();
}
