import type { AuthContext } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import type { Contact } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { AuditEntry } from '../contacts/contact-history.repository.js';
import { visibleContact } from '../contacts/contacts.service.js';
import { deletePoints, type PointTable, setPrimary } from './contact-points.repository.js';
import { changeContactDetails, type DetailChange, type DetailsDeps } from './detail-change.js';

/*
 * A contact's e-mail addresses and phones behave alike: a list of entries, unique by a key (the address without
 * case, the number's digits), of which exactly one is primary whenever there are any, and whose primary value the
 * contact row keeps in a column of its own (`email`, `phone`) for lists, search and duplicate checks. The rules for
 * which entry is primary are written once, here, and listed in docs/api.md.
 */

type Row = { id: number; is_primary: number };

/** What differs between e-mail addresses and phones. An entry `E` is the part of a row `R` a request gives. */
export type PointKind<R extends Row & E, E> = {
  table: PointTable;
  /** For sentences: 'e-mail address', 'phone number'. */
  noun: string;
  activity: number;
  dataTypes: { added: string; removed: string; changed: string; primary: 'email' | 'phone' };
  rows(db: Db, contactId: number): Promise<R[]>;
  page(db: Db, contactId: number, page: PageRequest): Promise<{ rows: R[]; total: number }>;
  /** Two entries with one key are one entry. */
  keyOf(entry: E): string;
  describe(entry: E): string;
  /** What `describe` recorded, as people read it in the activity timeline and in refusals ("(312) 555-0144 (work)"). */
  spoken(described: string): string;
  /** What the contact row's column holds for its primary entry: the address as entered, the phone's digits. */
  columnValue(row: R): string;
  differs(row: R, entry: E): boolean;
  insert(tx: Db, contactId: number, entry: E): Promise<R>;
  update(tx: Db, id: number, entry: E): Promise<R>;
};

export type PointsResult<R> = { rows: R[]; row?: R };

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Which entry is primary after a change: the one the change names; else the one that was, while it remains; else
 * the oldest remaining (rows come oldest first). A contact with entries always has exactly one primary.
 */
export function choosePrimary(rows: Row[], named?: number): number | null {
  if (named !== undefined && rows.some((r) => r.id === named)) return named;
  return (rows.find((r) => r.is_primary) ?? rows[0])?.id ?? null;
}

/**
 * Writes the primary flags the rule above gives to the contact's rows as the change left them (oldest first; kept in
 * memory rather than read again); answers them as they now are, and whether any flag moved.
 */
async function settle<R extends Row & E, E>(tx: Db, kind: PointKind<R, E>, contactId: number, rows: R[], named?: number) {
  const primaryId = choosePrimary(rows, named);
  const moved = rows.some((r) => !!r.is_primary !== (r.id === primaryId));
  if (moved) await setPrimary(tx, kind.table, contactId, primaryId);
  return { rows: rows.map((r) => ({ ...r, is_primary: r.id === primaryId ? 1 : 0 })), moved };
}

const replaced = <R extends Row>(rows: R[], row: R) => rows.map((r) => (r.id === row.id ? { ...row, is_primary: r.is_primary } : r));

type Outcome = { audit: AuditEntry[]; text?: string; id?: number; added?: Row };

/**
 * The change as the contact's history and row see it; the contact's column follows the primary entry, and its search
 * entries are written again.
 */
function finish<R extends Row & E, E>(
  kind: PointKind<R, E>,
  contact: Contact,
  settled: { rows: R[]; moved: boolean },
  { audit, text, id, added }: Outcome,
): DetailChange<PointsResult<R>> {
  const column = kind.dataTypes.primary;
  const primary = settled.rows.find((r) => r.is_primary);
  const value = primary ? kind.columnValue(primary) : '';
  if (value !== contact[column] || (settled.moved && !audit.length)) {
    audit.push({ action: 'update', dataType: column, old: contact[column], new: value });
  }
  const rows = [...settled.rows].sort((a, b) => b.is_primary - a.is_primary || a.id - b.id);

  return {
    result: { rows, row: rows.find((r) => r.id === id) },
    audit,
    activity: kind.activity,
    text: text ?? activityText(kind, audit[0]),
    columns: { [column]: value },
    // An entry added and nothing else changed: the search terms only gain it.
    ...(added && audit.length === 1 ? { searchAdded: true } : { searchChanged: true }),
  };
}

function activityText<R extends Row & E, E>(kind: PointKind<R, E>, entry: AuditEntry | undefined): string {
  const noun = capitalised(kind.noun);
  if (!entry) return '';
  const [old, value] = [kind.spoken(entry.old ?? ''), kind.spoken(entry.new ?? '')];
  switch (entry.dataType) {
    case kind.dataTypes.added:
      return `${noun} ${value} added`;
    case kind.dataTypes.removed:
      return `${noun} ${old} removed`;
    case kind.dataTypes.changed:
      return `${noun} ${old} changed to ${value}`;
    default:
      return value ? `Primary ${kind.noun} set to ${value}` : `Primary ${kind.noun} removed`;
  }
}

const entryAudit = (dataType: string, old?: string, value?: string): AuditEntry => ({ action: 'update', dataType, old, new: value });

export async function listPoints<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  page: PageRequest,
) {
  await visibleContact(ctx.store.db, auth.scope, contactId);
  return kind.page(ctx.store.db, contactId, page);
}

async function pointOf<R extends Row & E, E>(db: Db, kind: PointKind<R, E>, contactId: number, id: number, rows?: R[]): Promise<R> {
  const row = (rows ?? (await kind.rows(db, contactId))).find((r) => r.id === id);
  if (!row) throw notFound(`Contact ${contactId} has no ${kind.noun} ${id}.`);
  return row;
}

export async function getPoint<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  id: number,
) {
  await visibleContact(ctx.store.db, auth.scope, contactId);
  return pointOf(ctx.store.db, kind, contactId, id);
}

/** Adds an entry; one the contact already has (same key) is changed instead, so a retried request adds nothing. */
export function addPoint<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  entry: E,
  primary: boolean,
) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    let rows = await kind.rows(tx, contact.id);
    const same = rows.find((r) => kind.keyOf(r) === kind.keyOf(entry));
    const audit: AuditEntry[] = [];
    if (same && kind.differs(same, entry)) {
      rows = replaced(rows, await kind.update(tx, same.id, entry));
      audit.push(entryAudit(kind.dataTypes.changed, kind.describe(same), kind.describe(entry)));
    }
    const added = same ? undefined : await kind.insert(tx, contact.id, entry);
    if (added) {
      rows = [...rows, added];
      audit.push(entryAudit(kind.dataTypes.added, '', kind.describe(entry)));
    }
    const id = (same ?? added)!.id;
    const settled = await settle(tx, kind, contact.id, rows, primary ? id : undefined);
    return finish(kind, contact, settled, { audit, id, added });
  });
}

/**
 * The contact's entries become the list given: entries it keeps (same key) keep their ids. The first entry marked
 * primary becomes primary; none marked, the primary stays if it is kept, else the list's first entry is primary.
 */
export function replacePoints<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  entries: (E & { is_primary: boolean })[],
) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    const before = await kind.rows(tx, contact.id);
    const wanted = new Map<string, E & { is_primary: boolean }>();
    for (const entry of entries) {
      const prior = wanted.get(kind.keyOf(entry));
      if (prior) prior.is_primary ||= entry.is_primary;
      else wanted.set(kind.keyOf(entry), { ...entry });
    }
    const gone = before.filter((r) => !wanted.has(kind.keyOf(r)));
    await deletePoints(
      tx,
      kind.table,
      gone.map((r) => r.id),
    );
    const audit = gone.map((r) => entryAudit(kind.dataTypes.removed, kind.describe(r), ''));
    let rows = before.filter((r) => !gone.includes(r));
    const ids = new Map<string, number>();
    for (const [key, entry] of wanted) {
      const kept = before.find((r) => kind.keyOf(r) === key);
      if (kept && kind.differs(kept, entry)) {
        rows = replaced(rows, await kind.update(tx, kept.id, entry));
        audit.push(entryAudit(kind.dataTypes.changed, kind.describe(kept), kind.describe(entry)));
      }
      const added = kept ? undefined : await kind.insert(tx, contact.id, entry);
      if (added) {
        rows.push(added);
        audit.push(entryAudit(kind.dataTypes.added, '', kind.describe(entry)));
      }
      ids.set(key, (kept ?? added)!.id);
    }
    const marked = [...wanted].find(([, e]) => e.is_primary)?.[0];
    const primaryKept = before.some((r) => r.is_primary && wanted.has(kind.keyOf(r)));
    const named = marked !== undefined ? ids.get(marked) : primaryKept ? undefined : ids.get([...wanted.keys()][0] ?? '');
    return finish(kind, contact, await settle(tx, kind, contact.id, rows, named), { audit, text: `${capitalised(kind.noun)}s replaced` });
  });
}

/**
 * Changes one entry. `primary` true makes it primary; false on the primary hands that to the oldest other entry
 * (an only entry stays primary); left out, nothing moves. Another entry of the contact with the same key is a 409.
 */
export function changePoint<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  id: number,
  entryFor: (row: R) => E,
  primary: boolean | undefined,
) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    let rows = await kind.rows(tx, contact.id);
    const row = await pointOf(tx, kind, contactId, id, rows);
    const entry = entryFor(row);
    const clash = rows.find((r) => r.id !== row.id && kind.keyOf(r) === kind.keyOf(entry));
    if (clash) throw conflict(`This contact already has the ${kind.noun} ${kind.spoken(kind.describe(entry))}.`);
    const audit: AuditEntry[] = [];
    if (kind.differs(row, entry)) {
      rows = replaced(rows, await kind.update(tx, row.id, entry));
      audit.push(entryAudit(kind.dataTypes.changed, kind.describe(row), kind.describe(entry)));
    }
    const named = primary ? row.id : primary === false && row.is_primary ? rows.find((r) => r.id !== row.id)?.id : undefined;
    return finish(kind, contact, await settle(tx, kind, contact.id, rows, named), { audit, id: row.id });
  });
}

/** Removes one entry; when it was the primary one, the oldest remaining entry becomes primary. */
export function deletePoint<R extends Row & E, E>(
  ctx: DetailsDeps,
  auth: AuthContext,
  kind: PointKind<R, E>,
  contactId: number,
  id: number,
) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    const rows = await kind.rows(tx, contact.id);
    const row = await pointOf(tx, kind, contactId, id, rows);
    await deletePoints(tx, kind.table, [row.id]);
    const rest = rows.filter((r) => r.id !== row.id);
    return finish(kind, contact, await settle(tx, kind, contact.id, rest), {
      audit: [entryAudit(kind.dataTypes.removed, kind.describe(row), '')],
    });
  });
}
