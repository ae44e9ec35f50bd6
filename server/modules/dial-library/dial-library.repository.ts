import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Disposition, MessagesTable, VoicemailsTable } from '../../db/schema.js';

/* The libraries a dial session draws on: messages, voicemail recordings and disposition sets. */

/** The organisation's own rows and the system's shared ones (org_id null). */
const ownOrShared = (orgId: number) => (eb: any) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]);

export type DispositionSet = {
  id: number;
  org_id: number | null;
  name: string;
  kind: 'dialing' | 'answer';
  enabled: number;
  display_order: number;
};

export const dispositionSets = (db: Db, orgId: number): Promise<DispositionSet[]> =>
  db
    .selectFrom('disposition_sets')
    .selectAll()
    .where(ownOrShared(orgId))
    .where('enabled', '=', 1)
    .orderBy('display_order')
    .orderBy('id')
    .execute();

export async function dispositionsOf(db: Db, setIds: number[]): Promise<Disposition[]> {
  if (!setIds.length) return [];
  return db
    .selectFrom('dispositions')
    .selectAll()
    .where('set_id', 'in', setIds)
    .orderBy('set_id')
    .orderBy('display_order')
    .orderBy('id')
    .execute();
}

export async function listMessages(db: Db, orgId: number, type: string | undefined, list: 'user' | 'system' | 'both') {
  let q = db.selectFrom('messages').selectAll();
  q = list === 'user' ? q.where('org_id', '=', orgId) : list === 'system' ? q.where('org_id', 'is', null) : q.where(ownOrShared(orgId));
  if (type) q = q.where('type', '=', type);
  return q.orderBy('display_order').orderBy('id').execute();
}

export const insertMessage = (tx: Db, values: Insertable<MessagesTable>) =>
  tx.insertInto('messages').values(values).returning('id').executeTakeFirstOrThrow();

const VOICEMAIL_FIELDS = ['id', 'org_id', 'member_id', 'name', 'content_type', 'duration_ms', 'created_at'] as const;

export const listVoicemails = (db: Db, orgId: number) =>
  db.selectFrom('voicemails').select(VOICEMAIL_FIELDS).where('org_id', '=', orgId).orderBy('id').execute();

export const findVoicemail = (db: Db, orgId: number, id: number) =>
  db.selectFrom('voicemails').select(VOICEMAIL_FIELDS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

export const voicemailAudio = (db: Db, orgId: number, id: number) =>
  db
    .selectFrom('voicemails')
    .select(['audio', 'content_type', 'created_at'])
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();

export const insertVoicemail = (tx: Db, values: Insertable<VoicemailsTable>) =>
  tx.insertInto('voicemails').values(values).returning('id').executeTakeFirstOrThrow();
