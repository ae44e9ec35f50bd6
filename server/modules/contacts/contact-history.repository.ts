import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import { insertLater } from '../../db/later.js';
import { preparedLater } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';

/** Activity types (the record's activity_id). Listed in docs/api.md. */
export const ActivityType = {
  created: 1,
  updated: 2,
  moved: 3,
  transferred: 4,
  trashed: 5,
  noteAdded: 6,
  deleted: 7,
  emailsChanged: 8,
  phonesChanged: 9,
  tagsChanged: 10,
  customFieldsChanged: 11,
  restored: 12,
  called: 13,
} as const;

export type AuditEntry = { action: 'create' | 'update' | 'trash' | 'restore' | 'delete'; dataType: string; old?: string; new?: string };

/** One contact change: an activity line for people and its audit records, written in the caller's transaction. */
export async function recordChange(
  db: Db,
  change: { contactIds: number[]; memberId: number; at: string; activity: number; text: string; audit: AuditEntry[] },
) {
  if (!change.contactIds.length) return;
  if (change.contactIds.length === 1) return recordOne(db, change.contactIds[0]!, change);
  await insertLater(
    db,
    db.insertInto('contact_activities').values(
      change.contactIds.map((id) => ({
        contact_id: id,
        member_id: change.memberId,
        activity_type: change.activity,
        activity: change.text,
        created_at: change.at,
      })),
    ),
  );
  const rows = change.contactIds.flatMap((id) =>
    change.audit.map((a) => ({
      contact_id: id,
      member_id: change.memberId,
      action: a.action,
      data_type: a.dataType,
      old_value: a.old ?? '',
      new_value: a.new ?? '',
      created_at: change.at,
    })),
  );
  if (rows.length) await insertLater(db, db.insertInto('contact_audit').values(rows));
}

/** New contacts' activity ("Contact created") and audit record (its id as the new value), one statement per table. */
export async function recordCreated(db: Db, change: { contactIds: number[]; memberId: number; at: string }) {
  const { contactIds, memberId, at } = change;
  for (let i = 0; i < contactIds.length; i += 500) {
    const ids = contactIds.slice(i, i + 500);
    await db
      .insertInto('contact_activities')
      .values(
        ids.map((id) => ({
          contact_id: id,
          member_id: memberId,
          activity_type: ActivityType.created,
          activity: 'Contact created',
          created_at: at,
        })),
      )
      .execute();
    await db
      .insertInto('contact_audit')
      .values(
        ids.map((id) => ({
          contact_id: id,
          member_id: memberId,
          action: 'create' as const,
          data_type: 'contact',
          old_value: '',
          new_value: String(id),
          created_at: at,
        })),
      )
      .execute();
  }
}

type OneChange = { contactId: number; memberId: number; at: string; activity: number; text: string };
type AuditColumns = { actions: AuditEntry['action'][]; dataTypes: string[]; olds: string[]; news: string[] };

/* Prepared, for the change of one contact (a create, an update): most writes are that, many in a row in a dial session.
 * Both go with the write's next statement (db/later.ts): nothing in a write reads its own history back. */
const insertActivity = preparedLater<null, OneChange>('insert activity', (db, _, p) =>
  db
    .insertInto('contact_activities')
    .values({ contact_id: p.contactId, member_id: p.memberId, activity_type: p.activity, activity: p.text, created_at: p.at }),
);

const insertAudit = preparedLater<null, Omit<OneChange, 'activity' | 'text'> & AuditColumns>('insert audit', (db, _, p) =>
  db.insertInto('contact_audit').values(
    p.actions.map((action, i) => ({
      contact_id: p.contactId,
      member_id: p.memberId,
      action,
      data_type: p.dataTypes[i]!,
      old_value: p.olds[i]!,
      new_value: p.news[i]!,
      created_at: p.at,
    })),
  ),
);

async function recordOne(
  db: Db,
  contactId: number,
  change: { memberId: number; at: string; activity: number; text: string; audit: AuditEntry[] },
) {
  const { memberId, at, audit } = change;
  await insertActivity(db, null, { contactId, memberId, at, activity: change.activity, text: change.text });
  if (!audit.length) return;
  await insertAudit(db, null, {
    contactId,
    memberId,
    at,
    actions: audit.map((a) => a.action),
    dataTypes: audit.map((a) => a.dataType),
    olds: audit.map((a) => a.old ?? ''),
    news: audit.map((a) => a.new ?? ''),
  });
}

const activityText = (text: string | [string, string], old: Expression<string>) =>
  typeof text === 'string' ? sql<string>`${text}` : sql<string>`${text[0]} || ${old} || ${text[1]}`;

/** Contacts a set-based change applies to, each once, with the value its audit record shows as the old one. */
export type ChangedSet = SelectQueryBuilder<Database, keyof Database, { contact_id: number; old_value: string }>;

/**
 * `recordChange` for contacts chosen by a query rather than listed: one statement per table however many they are.
 * Run it before the statement that changes them, while the query still finds them.
 */
export async function recordSetChange(
  db: Db,
  set: ChangedSet,
  change: {
    memberId: number;
    at: string;
    activity: number;
    /** The activity's text; [before, after] puts each contact's old value between the two, as a one-contact change does. */
    text: string | [before: string, after: string];
    audit: Omit<AuditEntry, 'old'>;
  },
) {
  const { audit } = change;
  await db
    .insertInto('contact_audit')
    .columns(['contact_id', 'member_id', 'action', 'data_type', 'old_value', 'new_value', 'created_at'])
    .expression(
      db
        .selectFrom(set.as('s'))
        .select((eb) => [
          's.contact_id',
          eb.val(change.memberId).as('member_id'),
          eb.val(audit.action).as('action'),
          eb.val(audit.dataType).as('data_type'),
          's.old_value',
          eb.val(audit.new ?? '').as('new_value'),
          eb.val(change.at).as('created_at'),
        ]),
    )
    .execute();
  await db
    .insertInto('contact_activities')
    .columns(['contact_id', 'member_id', 'activity_type', 'activity', 'created_at'])
    .expression(
      db
        .selectFrom(set.as('s'))
        .select((eb) => [
          's.contact_id',
          eb.val(change.memberId).as('member_id'),
          eb.val(change.activity).as('activity_type'),
          activityText(change.text, eb.ref('s.old_value')).as('activity'),
          eb.val(change.at).as('created_at'),
        ]),
    )
    .execute();
}

export function listActivities(db: Db, contactId: number, since: string, page: PageRequest) {
  const base = db.selectFrom('contact_activities').where('contact_id', '=', contactId).where('created_at', '>=', since);
  return paged(base, (q) => q.selectAll().orderBy('id', 'desc'), page);
}

export function listAudit(db: Db, contactId: number, page: PageRequest) {
  return paged(db.selectFrom('contact_audit').where('contact_id', '=', contactId), (q) => q.selectAll().orderBy('id', 'desc'), page);
}
