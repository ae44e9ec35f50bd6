import type { Insertable, Updateable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { fixedLimit, paged, type PageRequest } from '../../db/paging.js';
import { prepared } from '../../db/prepared.js';
import type { Call, CallsTable, UsageDaySessionsTable, UsageDaysTable, UsageDispositionsTable } from '../../db/schema.js';

/*
 * Usage is read from usage_days (each member's figures per UTC day), usage_day_sessions (which sessions had a call
 * that day) and usage_dispositions (calls per disposition label that day), not from the calls: a vendor's 90 days over
 * 288,000 calls read every call, and better-sqlite3 reads synchronously. Every write of a call goes through insertCall
 * or updateCall below, which add the difference between the call's counted figures before and after to its day with
 * atomic increments, in the write's transaction.
 */

/** What decides a call's place in usage: it is written when the call is made and never changes. */
type CallKey = 'id' | 'org_id' | 'member_id' | 'session_id' | 'started_at';
export type CallChanges = Omit<Updateable<CallsTable>, CallKey>;
type Counted = Pick<Call, Exclude<CallKey, 'id'> | 'live' | 'voicemail' | 'email_ok' | 'talk_seconds' | 'disposition'>;
type Figures = Pick<UsageDaysTable, 'calls' | 'connected' | 'voicemail' | 'emails' | 'talk_seconds'>;

const FIGURES = ['calls', 'connected', 'voicemail', 'emails', 'talk_seconds'] as const;

/**
 * The docs/api.md 'Usage' meaning: connected is a live disposition, talk time counts live calls only, e-mails are those
 * the mail server accepted (email_ok; email_sent is set when one is queued).
 */
const figuresOf = (c: Counted): Figures => ({
  calls: 1,
  connected: c.live,
  voicemail: c.voicemail,
  emails: c.email_ok,
  talk_seconds: c.live ? c.talk_seconds : 0,
});

/** The UTC day of a stored timestamp ('YYYY-MM-DD HH:MM:SS'). */
const dayOf = (timestamp: string) => timestamp.slice(0, 10);

const usageOne = prepared<null, UsageDaysTable, unknown>('add to a day of usage', (db, _, p) =>
  db
    .insertInto('usage_days')
    .values(p as unknown as UsageDaysTable)
    .onConflict((oc) =>
      oc.columns(['member_id', 'day']).doUpdateSet((eb) => ({
        calls: eb('usage_days.calls', '+', eb.ref('excluded.calls')),
        connected: eb('usage_days.connected', '+', eb.ref('excluded.connected')),
        voicemail: eb('usage_days.voicemail', '+', eb.ref('excluded.voicemail')),
        emails: eb('usage_days.emails', '+', eb.ref('excluded.emails')),
        talk_seconds: eb('usage_days.talk_seconds', '+', eb.ref('excluded.talk_seconds')),
      })),
    ),
);

const dispositionOne = prepared<null, UsageDispositionsTable, unknown>('add to a day of outcomes', (db, _, p) =>
  db
    .insertInto('usage_dispositions')
    .values(p as unknown as UsageDispositionsTable)
    .onConflict((oc) =>
      oc
        .columns(['member_id', 'day', 'disposition'])
        .doUpdateSet((eb) => ({ calls: eb('usage_dispositions.calls', '+', eb.ref('excluded.calls')) })),
    ),
);

/**
 * A call counts under its disposition label ('' until it has one): a new call adds one to its label, a change of label
 * moves it from one to the other. Rows are touched in the order of their labels, so two transactions moving calls
 * between the same two labels (on PostgreSQL, row locks) take their locks in one order and never wait on each other.
 */
async function countDisposition(tx: Db, at: { org_id: number; member_id: number; day: string }, before: string | null, after: string) {
  if (before === after) return;
  const moves = [{ disposition: after, calls: 1 }, ...(before === null ? [] : [{ disposition: before, calls: -1 }])].sort((a, b) =>
    a.disposition < b.disposition ? -1 : 1,
  );
  for (const move of moves) await dispositionOne(tx, null, { ...at, ...move });
}

const sessionDayOne = prepared<null, UsageDaySessionsTable, unknown>('a session in a day of usage', (db, _, p) =>
  db
    .insertInto('usage_day_sessions')
    .values(p as unknown as UsageDaySessionsTable)
    .onConflict((oc) => oc.doNothing()),
);

/**
 * The one upkeep of usage: adds a call's figures after a change minus its figures before (none for a new call) to its
 * member's day, as one atomic increment. A call never leaves its session or day, so only a new call brings a session in.
 */
async function countCall(tx: Db, before: Counted | null, after: Counted): Promise<void> {
  const [was, now] = [before ? figuresOf(before) : null, figuresOf(after)];
  const delta = Object.fromEntries(FIGURES.map((name) => [name, now[name] - (was?.[name] ?? 0)])) as Figures;
  const at = { org_id: after.org_id, member_id: after.member_id, day: dayOf(after.started_at) };
  if (FIGURES.some((name) => delta[name] !== 0)) await usageOne(tx, null, { ...at, ...delta });
  await countDisposition(tx, at, before ? before.disposition : null, after.disposition);
  if (!before) await sessionDayOne(tx, null, { ...at, session_id: after.session_id });
}

export async function insertCall(tx: Db, values: Insertable<CallsTable>): Promise<Call> {
  const call = await tx.insertInto('calls').values(values).returningAll().executeTakeFirstOrThrow();
  await countCall(tx, null, call);
  return call;
}

/**
 * Changes a call and counts the difference in usage. The update holds only while the counted figures are still those
 * read: a change committed in between (another process, on PostgreSQL) makes it read again, never count twice.
 */
export async function updateCall(tx: Db, id: number, changes: CallChanges): Promise<Call> {
  for (let attempt = 1; ; attempt++) {
    const before = await tx.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const after = await tx
      .updateTable('calls')
      .set(changes)
      .where('id', '=', id)
      .where('live', '=', before.live)
      .where('voicemail', '=', before.voicemail)
      .where('email_ok', '=', before.email_ok)
      .where('talk_seconds', '=', before.talk_seconds)
      .where('disposition', '=', before.disposition)
      .returningAll()
      .executeTakeFirst();
    if (after) {
      await countCall(tx, before, after);
      return after;
    }
    if (attempt === 3) throw new Error(`Call ${id} kept changing while it was being updated.`);
  }
}

export const findCall = (db: Db, id: number): Promise<Call | undefined> =>
  db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();

/** The call of a queue position (a contact is called at most once in a session). */
export const callAt = (db: Db, sessionId: number, position: number): Promise<Call | undefined> =>
  db
    .selectFrom('calls')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('position', '=', position)
    .orderBy('id', 'desc')
    .limit(fixedLimit(1))
    .executeTakeFirst();

/** A call with its contact's name as it is now (null once the contact is deleted for good). */
export type CallWithContact = Call & { contact_first_name: string | null; contact_last_name: string | null };

const callsWithContacts = (db: Db) => db.selectFrom('calls').leftJoin('contacts', 'contacts.id', 'calls.contact_id');
const CONTACT_NAME = ['contacts.first_name as contact_first_name', 'contacts.last_name as contact_last_name'] as const;

/** A call of a member the scope may see. */
export function findVisibleCall(db: Db, scope: Scope, id: number): Promise<CallWithContact | undefined> {
  let q = callsWithContacts(db).selectAll('calls').select(CONTACT_NAME).where('calls.id', '=', id).where('calls.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('calls.member_id', 'in', scope.memberIds);
  return q.executeTakeFirst();
}

export const listCalls = (db: Db, sessionId: number, page: PageRequest): Promise<{ rows: CallWithContact[]; total: number }> =>
  paged(
    callsWithContacts(db).where('calls.session_id', '=', sessionId),
    (q) => q.selectAll('calls').select(CONTACT_NAME).orderBy('calls.id'),
    page,
  );

export type UsageRow = {
  member_id: number;
  sessions: number;
  calls: number;
  connected: number;
  voicemail: number;
  emails: number;
  talk_seconds: number;
};

/** Each member's figures over the UTC days [fromDay, toDay], from the kept per-day figures: a few rows per member and day. */
export async function usageOf(db: Db, orgId: number, memberIds: number[] | null, fromDay: string, toDay: string): Promise<UsageRow[]> {
  let figures = db
    .selectFrom('usage_days')
    .select((eb) => [
      'member_id',
      eb.fn.sum<number>('calls').as('calls'),
      eb.fn.sum<number>('connected').as('connected'),
      eb.fn.sum<number>('voicemail').as('voicemail'),
      eb.fn.sum<number>('emails').as('emails'),
      eb.fn.sum<number>('talk_seconds').as('talk_seconds'),
    ])
    .where('org_id', '=', orgId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
  let sessions = db
    .selectFrom('usage_day_sessions')
    .select((eb) => ['member_id', eb.fn.count<number>('session_id').distinct().as('sessions')])
    .where('org_id', '=', orgId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
  if (memberIds) {
    figures = figures.where('member_id', 'in', memberIds);
    sessions = sessions.where('member_id', 'in', memberIds);
  }
  const [rows, counted] = await Promise.all([figures.groupBy('member_id').execute(), sessions.groupBy('member_id').execute()]);
  const sessionsOf = new Map(counted.map((r) => [r.member_id, Number(r.sessions)]));
  return rows.map((r) => ({
    member_id: r.member_id,
    sessions: sessionsOf.get(r.member_id) ?? 0,
    calls: Number(r.calls),
    connected: Number(r.connected),
    voicemail: Number(r.voicemail),
    emails: Number(r.emails),
    talk_seconds: Number(r.talk_seconds),
  }));
}

export type UsageDayRow = { day: string; calls: number; connected: number; voicemail: number; talk_seconds: number };

/** The figures of the members (null: the whole organisation) per UTC day in [fromDay, toDay], days with a call only. */
export async function usageByDay(
  db: Db,
  orgId: number,
  memberIds: number[] | null,
  fromDay: string,
  toDay: string,
): Promise<UsageDayRow[]> {
  let q = db
    .selectFrom('usage_days')
    .select((eb) => [
      'day',
      eb.fn.sum<number>('calls').as('calls'),
      eb.fn.sum<number>('connected').as('connected'),
      eb.fn.sum<number>('voicemail').as('voicemail'),
      eb.fn.sum<number>('talk_seconds').as('talk_seconds'),
    ])
    .where('org_id', '=', orgId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
  if (memberIds) q = q.where('member_id', 'in', memberIds);
  const rows = await q.groupBy('day').orderBy('day').execute();
  return rows.map((r) => ({
    day: r.day,
    calls: Number(r.calls),
    connected: Number(r.connected),
    voicemail: Number(r.voicemail),
    talk_seconds: Number(r.talk_seconds),
  }));
}

/** Calls of the members (null: the whole organisation) per disposition label in [fromDay, toDay], most first; '' is none yet. */
export async function usageByDisposition(db: Db, orgId: number, memberIds: number[] | null, fromDay: string, toDay: string) {
  let q = db
    .selectFrom('usage_dispositions')
    .select((eb) => ['disposition', eb.fn.sum<number>('calls').as('calls')])
    .where('org_id', '=', orgId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
  if (memberIds) q = q.where('member_id', 'in', memberIds);
  const rows = await q
    .groupBy('disposition')
    .having((eb) => eb.fn.sum('calls'), '>', 0)
    .orderBy('calls', 'desc')
    .orderBy('disposition')
    .execute();
  return rows.map((r) => ({ disposition: r.disposition, calls: Number(r.calls) }));
}
