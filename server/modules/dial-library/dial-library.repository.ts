import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, Disposition, MessagesTable, VoicemailsTable } from '../../db/schema.js';
import { starterVoicemail } from '../../audio/starter-voicemail.js';

/* The libraries a dial session draws on: messages, voicemail recordings and disposition sets. */

/** The organisation's own rows and the system's shared ones (org_id null). */
const ownOrShared = (orgId: number) => (eb: ExpressionBuilder<Database, 'disposition_sets' | 'voicemails' | 'messages'>) =>
  eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]);

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

/** A message the organisation may use: its own or the system's. */
export const findMessage = (db: Db, orgId: number, id: number) =>
  db.selectFrom('messages').selectAll().where('id', '=', id).where(ownOrShared(orgId)).executeTakeFirst();

export type MessageRow = NonNullable<Awaited<ReturnType<typeof findMessage>>>;

/** Changes one of the organisation's own messages (never the system's); false when there is none. */
export async function updateMessage(tx: Db, orgId: number, id: number, changes: Updateable<MessagesTable>): Promise<boolean> {
  const result = await tx.updateTable('messages').set(changes).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteMessage(tx: Db, orgId: number, id: number): Promise<boolean> {
  const result = await tx.deleteFrom('messages').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const VOICEMAIL_FIELDS = ['id', 'org_id', 'member_id', 'name', 'content_type', 'duration_ms', 'system', 'created_at'] as const;

const withMakers = (db: Db, orgId: number) =>
  db
    .selectFrom('voicemails as v')
    .leftJoin('members as m', 'm.id', 'v.member_id')
    .select(VOICEMAIL_FIELDS.map((f) => `v.${f}` as const))
    .select(['m.first_name', 'm.last_name', 'm.username'])
    .where('v.org_id', '=', orgId);

/** The organisation's recordings, with the name of the member who made each (null for the system's and a removed member's). */
export const listVoicemails = (db: Db, orgId: number) => withMakers(db, orgId).orderBy('v.id').execute();

export const findVoicemailWithMaker = (db: Db, orgId: number, id: number) =>
  withMakers(db, orgId).where('v.id', '=', id).executeTakeFirst();

export type VoicemailRow = Awaited<ReturnType<typeof listVoicemails>>[number];

export const findVoicemail = (db: Db, orgId: number, id: number) =>
  db.selectFrom('voicemails').select(VOICEMAIL_FIELDS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

export const voicemailAudio = (db: Db, orgId: number, id: number) =>
  db
    .selectFrom('voicemails')
    .select(['audio', 'content_type', 'created_at'])
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();

/** A voicemail's audio by id alone: for the carrier, whose link to it is signed (carrier.router.ts). */
export const findVoicemailAudio = (db: Db, id: number) =>
  db.selectFrom('voicemails').select(['audio', 'content_type']).where('id', '=', id).executeTakeFirst();

export const insertVoicemail = (tx: Db, values: Insertable<VoicemailsTable>) =>
  tx.insertInto('voicemails').values(values).returning('id').executeTakeFirstOrThrow();

export async function insertStarterVoicemail(tx: Db, orgId: number, at: string) {
  await insertVoicemail(tx, { org_id: orgId, member_id: null, system: 1, created_at: at, ...starterVoicemail() });
}

/** Renames a recording; false when there is none (it was deleted meanwhile). */
export async function renameVoicemail(tx: Db, orgId: number, id: number, name: string): Promise<boolean> {
  const result = await tx.updateTable('voicemails').set({ name }).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteVoicemail(tx: Db, orgId: number, id: number): Promise<boolean> {
  const result = await tx.deleteFrom('voicemails').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
