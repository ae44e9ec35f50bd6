import { sql } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { countStripes } from '../../db/dialect.js';
import { insertLater } from '../../db/later.js';
import { type Placeholders, preparedLater } from '../../db/prepared.js';
import type { Contact } from '../../db/schema.js';

/*
 * contact_counts holds how many contacts each owner has per folder (0: none), trashed and archived state. A
 * list's total is a sum over a few of its rows instead of a count over every matching contact: at a million
 * contacts that count was most of a page's time, and it grew with the folder. Every write that adds, removes
 * or moves contacts adjusts the rows here in the same transaction.
 */

/** What a contact is counted under. */
export type Counted = Pick<Contact, 'org_id' | 'owner_id' | 'folder_id' | 'trashed' | 'archived'>;

type Change = { contact: Counted; n: number };

const keyOf = (c: Counted) => `${c.owner_id}:${c.folder_id ?? 0}:${c.trashed}:${c.archived}`;

type CountRow = { org_id: number; owner_id: number; folder_key: number; trashed: number; archived: number; stripe: number; n: number };

const upsertCounts = (db: Db, rows: CountRow[] | Placeholders<CountRow>[]) =>
  db
    .insertInto('contact_counts')
    .values(rows as CountRow[])
    .onConflict((oc) =>
      oc
        .columns(['owner_id', 'folder_key', 'trashed', 'archived', 'stripe'])
        .doUpdateSet((eb) => ({ n: eb('contact_counts.n', '+', eb.ref('excluded.n')) })),
    );

/* Prepared: most writes change one partition (each contact a dial session creates, say). Counts go with the write's
 * next statement (db/later.ts): one partition's upserts never share a statement, and a read of them comes after. */
const countOne = preparedLater<null, CountRow>('count one partition', (db, _, p) => upsertCounts(db, [p]));

const stripes = new WeakMap<object, number>();

/** One stripe per transaction, chosen at random (dialect.ts, countStripes): its changes never wait on each other. */
function stripeOf(tx: Db): number {
  let stripe = stripes.get(tx);
  if (stripe === undefined) {
    stripe = Math.floor(Math.random() * countStripes(tx));
    stripes.set(tx, stripe);
  }
  return stripe;
}

/** Adds each change's `n` (negative to take away) to its partition: one upsert for all partitions that change. */
async function applyChanges(tx: Db, changes: Change[]): Promise<void> {
  const deltas = new Map<string, Change>();
  for (const { contact, n } of changes) {
    const entry = deltas.get(keyOf(contact));
    if (entry) entry.n += n;
    else deltas.set(keyOf(contact), { contact, n });
  }
  // The transaction's stripe, its rows upserted (and so locked) in the order of their keys: two writers that meet on a
  // stripe wait for each other as they did for the one row, in one order, not each for a row the other holds.
  const stripe = stripeOf(tx);
  const rows = [...deltas.values()]
    .filter((d) => d.n !== 0)
    .map(({ contact: c, n }) => ({
      org_id: c.org_id,
      owner_id: c.owner_id,
      folder_key: c.folder_id ?? 0,
      trashed: c.trashed,
      archived: c.archived,
      stripe,
      n,
    }))
    .sort((a, b) => a.owner_id - b.owner_id || a.folder_key - b.folder_key || a.trashed - b.trashed || a.archived - b.archived);
  if (!rows.length) return;
  if (rows.length === 1) {
    await countOne(tx, null, rows[0]!);
    return;
  }
  await insertLater(tx, upsertCounts(tx, rows));
}

/** Counts contacts as they were (`before`, removed or changed) out and as they are (`after`, added or changed) in. */
export function adjustCounts(tx: Db, before: Counted[], after: Counted[]): Promise<void> {
  return applyChanges(tx, [...before.map((contact) => ({ contact, n: -1 })), ...after.map((contact) => ({ contact, n: 1 }))]);
}

/**
 * Moves whole partitions, for the set-based moves: all of an organisation's contacts in some folders to another
 * folder (a folder deleted into another), or all of an owner's contacts to another owner (a member deleted).
 */
export async function moveCounts(
  tx: Db,
  from: { orgId: number; folderIds?: number[]; ownerId?: number },
  to: { folderId?: number | null; ownerId?: number },
): Promise<void> {
  let taken = tx.deleteFrom('contact_counts').where('org_id', '=', from.orgId);
  if (from.folderIds) taken = taken.where('folder_key', 'in', from.folderIds);
  if (from.ownerId !== undefined) taken = taken.where('owner_id', '=', from.ownerId);
  const rows = await taken.returningAll().execute();
  await applyChanges(
    tx,
    rows.map((r) => ({
      contact: {
        org_id: r.org_id,
        owner_id: to.ownerId ?? r.owner_id,
        folder_id: to.folderId === undefined ? r.folder_key : to.folderId,
        trashed: r.trashed,
        archived: r.archived,
      },
      n: r.n,
    })),
  );
}

/** Contacts of one partition, as a grouped read of the contacts about to move gives them. */
export type CountedGroup = Counted & { n: number };

/** Counts groups of contacts out of their partitions and into those a move takes them to (a chunk moved or transferred). */
export function shiftCounts(tx: Db, groups: CountedGroup[], to: Partial<Pick<Counted, 'owner_id' | 'folder_id'>>): Promise<void> {
  return applyChanges(
    tx,
    groups.flatMap(({ n, ...contact }) => [
      { contact, n: -n },
      { contact: { ...contact, ...to }, n },
    ]),
  );
}

/** Counts an organisation's contacts again from scratch: after a bulk load that wrote contacts directly. */
export async function recountOrganisation(tx: Db, orgId: number): Promise<void> {
  await tx.deleteFrom('contact_counts').where('org_id', '=', orgId).execute();
  await tx
    .insertInto('contact_counts')
    .columns(['org_id', 'owner_id', 'folder_key', 'trashed', 'archived', 'n'])
    .expression(
      tx
        .selectFrom('contacts')
        .where('org_id', '=', orgId)
        .select((eb) => [
          'org_id',
          'owner_id',
          eb.fn.coalesce('folder_id', sql.lit(0)).as('folder_key'),
          'trashed',
          'archived',
          eb.fn.countAll().as('n'),
        ])
        .groupBy(['org_id', 'owner_id', sql`coalesce(folder_id, 0)`, 'trashed', 'archived']),
    )
    .execute();
}

/** Active contacts (not trashed, not archived) a scope holds, per folder (0: none) or per owner: from the kept counts. */
export async function activeCountsBy(db: Db, scope: Scope, by: 'folder_key' | 'owner_id'): Promise<Map<number, number>> {
  let q = db
    .selectFrom('contact_counts')
    .select((eb) => [by, eb.fn.sum<number>('n').as('n')])
    .where('org_id', '=', scope.orgId)
    .where('trashed', '=', 0)
    .where('archived', '=', 0)
    .groupBy(by);
  if (scope.kind === 'team') q = q.where('owner_id', 'in', scope.memberIds);
  const rows = await q.execute();
  return new Map(rows.map((r) => [Number((r as Record<string, unknown>)[by]), Number(r.n)]));
}
