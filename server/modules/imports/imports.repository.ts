import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { claimable } from '../../db/locks.js';
import type { ImportRowsTable, ImportsTable } from '../../db/schema.js';

export type ImportRow = Selectable<ImportsTable>;
export type StagedRow = Selectable<ImportRowsTable>;

/* Imports, their staged rows and saved mappings (migration 0026). */

export const insertImport = (tx: Db, values: Insertable<ImportsTable>) =>
  tx.insertInto('imports').values(values).returning('id').executeTakeFirstOrThrow();

/** Staged rows, several per statement (the caller keeps a batch under the store's parameter limits). */
export async function insertRows(tx: Db, importId: number, rows: { row_no: number; fields: string }[]): Promise<void> {
  if (rows.length)
    await tx
      .insertInto('import_rows')
      .values(rows.map((r) => ({ import_id: importId, ...r })))
      .execute();
}

export const deleteImport = (tx: Db, id: number) => tx.deleteFrom('imports').where('id', '=', id).execute();

export const findImport = (db: Db, id: number): Promise<ImportRow | undefined> =>
  db.selectFrom('imports').selectAll().where('id', '=', id).where('status', '!=', 'staging').executeTakeFirst();

/** An import with the names of the member who made it (removed members keep theirs). */
export type NamedImportRow = ImportRow & { member_first_name: string; member_last_name: string; member_username: string };

const named = (db: Db) =>
  db
    .selectFrom('imports')
    .innerJoin('members', 'members.id', 'imports.member_id')
    .selectAll('imports')
    .select(['members.first_name as member_first_name', 'members.last_name as member_last_name', 'members.username as member_username'])
    .where('imports.status', '!=', 'staging');

export const findNamedImport = (db: Db, id: number): Promise<NamedImportRow | undefined> =>
  named(db).where('imports.id', '=', id).executeTakeFirst();

/** Imports of the members a scope reaches, newest first. */
export function listImports(db: Db, scope: Scope, limit: number): Promise<NamedImportRow[]> {
  let q = named(db).where('imports.org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('imports.member_id', 'in', scope.memberIds);
  return q.orderBy('imports.id', 'desc').limit(limit).execute();
}

export async function updateImport(
  tx: Db,
  id: number,
  changes: Updateable<ImportsTable>,
  where: { statuses?: ImportRow['status'][]; owner?: string; dryRun?: 0 | 1 } = {},
): Promise<boolean> {
  let q = tx.updateTable('imports').set(changes).where('id', '=', id);
  if (where.dryRun !== undefined) q = q.where('dry_run', '=', where.dryRun);
  if (where.statuses) q = q.where('status', 'in', where.statuses);
  if (where.owner) q = q.where('lease_owner', '=', where.owner);
  return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
}

/** Rows after `afterRowNo`, in order, at most `limit`. */
export const rowsAfter = (db: Db, importId: number, afterRowNo: number, limit: number): Promise<StagedRow[]> =>
  db
    .selectFrom('import_rows')
    .selectAll()
    .where('import_id', '=', importId)
    .where('row_no', '>', afterRowNo)
    .orderBy('row_no')
    .limit(limit)
    .execute();

export const refusedRowsAfter = (db: Db, importId: number, afterRowNo: number, limit: number) =>
  db
    .selectFrom('import_rows')
    .select(['row_no', 'fields', 'reason'])
    .where('import_id', '=', importId)
    .where('outcome', '=', 'refused')
    .where('row_no', '>', afterRowNo)
    .orderBy('row_no')
    .limit(limit)
    .execute();

/** Rows a real run wrote something for (created or updated), after `afterRowNo`, for undo. */
export const writtenRowsAfter = (db: Db, importId: number, afterRowNo: number, limit: number): Promise<StagedRow[]> =>
  db
    .selectFrom('import_rows')
    .selectAll()
    .where('import_id', '=', importId)
    .where('outcome', 'in', ['created', 'updated'])
    .where('row_no', '>', afterRowNo)
    .orderBy('row_no')
    .limit(limit)
    .execute();

export type RowOutcome = Pick<StagedRow, 'row_no' | 'outcome' | 'contact_id' | 'reason' | 'changes'>;

/** Outcomes per staged row, up to this many rows a statement (5 parameters each: under both stores' limits). */
const OUTCOMES_PER_STATEMENT = 1_000;

/**
 * Writes the outcomes of staged rows, many rows a statement: an upsert on the rows' key that only ever updates (every
 * row is staged already; `fields` is not touched), the same statement on both stores, instead of an UPDATE per row.
 */
export async function setRowOutcomes(tx: Db, importId: number, outcomes: RowOutcome[]): Promise<void> {
  for (let i = 0; i < outcomes.length; i += OUTCOMES_PER_STATEMENT) {
    await tx
      .insertInto('import_rows')
      .values(
        outcomes.slice(i, i + OUTCOMES_PER_STATEMENT).map((o) => ({
          import_id: importId,
          row_no: o.row_no,
          fields: '',
          outcome: o.outcome,
          contact_id: o.contact_id,
          reason: o.reason,
          changes: o.changes,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['import_id', 'row_no']).doUpdateSet((eb) => ({
          outcome: eb.ref('excluded.outcome'),
          contact_id: eb.ref('excluded.contact_id'),
          reason: eb.ref('excluded.reason'),
          changes: eb.ref('excluded.changes'),
        })),
      )
      .execute();
  }
}

/** A new run starts from no outcomes (a dry run's are replaced). */
export const clearOutcomes = (tx: Db, importId: number) =>
  tx
    .updateTable('import_rows')
    .set({ outcome: null, contact_id: null, reason: null, changes: null })
    .where('import_id', '=', importId)
    .execute();

const open = (db: Db, nowMs: number) =>
  db
    .selectFrom('imports')
    .where('status', 'in', ['queued', 'running', 'undoing'])
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]));

export async function anyOpenImport(db: Db, nowMs: number): Promise<boolean> {
  return (await open(db, nowMs).select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Takes the oldest open import no live runner holds (a claim: docs/store.md; as bulk-jobs.repository.ts claims). */
export async function claimImport(tx: Db, owner: string, nowMs: number, untilMs: number): Promise<ImportRow | undefined> {
  const next = await claimable(tx, open(tx, nowMs).select(['id', 'status']).orderBy('id').limit(1)).executeTakeFirst();
  if (!next) return undefined;
  return tx
    .updateTable('imports')
    .set({ status: next.status === 'queued' ? 'running' : next.status, lease_owner: owner, lease_until_ms: untilMs })
    .where('id', '=', next.id)
    .where('status', '=', next.status)
    .where((eb) => eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', nowMs)]))
    .returningAll()
    .executeTakeFirst();
}

/** The team's folders and custom fields (with their drop-down options), for mapping rows. */
export async function catalogOf(db: Db, orgId: number) {
  const [folders, fields, options] = await Promise.all([
    db.selectFrom('folders').select(['id', 'name']).where('org_id', '=', orgId).execute(),
    db.selectFrom('custom_fields').select(['id', 'display_name', 'type_id']).where('org_id', '=', orgId).orderBy('display_order').execute(),
    db
      .selectFrom('custom_field_options')
      .innerJoin('custom_fields', 'custom_fields.id', 'custom_field_options.custom_field_id')
      .select(['custom_field_options.custom_field_id', 'custom_field_options.label'])
      .where('custom_fields.org_id', '=', orgId)
      .orderBy('custom_field_options.id')
      .execute(),
  ]);
  return { folders, fields, options };
}

/**
 * Contacts a scope may see (not in the trash) holding any of these e-mail addresses (lower case) or phone digits:
 * the duplicates of a chunk of rows in two queries.
 */
export async function contactsByKeys(db: Db, scope: Scope, emails: string[], phones: string[]) {
  const owners = scope.kind === 'team' ? scope.memberIds : null;
  const [byEmail, byPhone] = await Promise.all([
    emails.length
      ? db
          .selectFrom('contact_emails')
          .innerJoin('contacts', 'contacts.id', 'contact_emails.contact_id')
          .select(['contacts.id', 'contact_emails.email_lc as key'])
          .where('contact_emails.email_lc', 'in', emails)
          .where('contacts.org_id', '=', scope.orgId)
          .where('contacts.trashed', '=', 0)
          .$if(owners !== null, (q) => q.where('contacts.owner_id', 'in', owners!))
          .execute()
      : [],
    phones.length
      ? db
          .selectFrom('contact_phones')
          .innerJoin('contacts', 'contacts.id', 'contact_phones.contact_id')
          .select(['contacts.id', 'contact_phones.phone_number as key'])
          .where('contact_phones.phone_number', 'in', phones)
          .where('contacts.org_id', '=', scope.orgId)
          .where('contacts.trashed', '=', 0)
          .$if(owners !== null, (q) => q.where('contacts.owner_id', 'in', owners!))
          .execute()
      : [],
  ]);
  return { byEmail, byPhone };
}

export const insertMapping = (tx: Db, values: Insertable<import('../../db/schema.js').ImportMappingsTable>) =>
  tx.insertInto('import_mappings').values(values).returningAll().executeTakeFirstOrThrow();

export function listMappings(db: Db, scope: Scope) {
  let q = db.selectFrom('import_mappings').selectAll().where('org_id', '=', scope.orgId);
  if (scope.kind === 'team') q = q.where('member_id', 'in', scope.memberIds);
  return q.orderBy('id', 'desc').limit(500).execute();
}

export const findMapping = (db: Db, id: number) => db.selectFrom('import_mappings').selectAll().where('id', '=', id).executeTakeFirst();

export const deleteMapping = (tx: Db, id: number) => tx.deleteFrom('import_mappings').where('id', '=', id).execute();

/** What an update compares a row with: an existing contact's address, tags and custom values (its row, e-mails and phones are read by the contacts module). */
export async function detailsOf(db: Db, contactId: number) {
  const [address, tags, custom] = await Promise.all([
    db.selectFrom('contact_addresses').selectAll().where('contact_id', '=', contactId).where('is_primary', '=', 1).executeTakeFirst(),
    db
      .selectFrom('contact_tags')
      .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
      .select(['tags.id', 'tags.title', 'tags.title_lc'])
      .where('contact_tags.contact_id', '=', contactId)
      .execute(),
    db.selectFrom('contact_custom_values').select(['custom_field_id', 'value']).where('contact_id', '=', contactId).execute(),
  ]);
  return { address, tags, custom };
}

/** Undo: the address an import added, removed again (its bit in detail_kinds may stay: that costs only a query). */
export const deleteAddress = (tx: Db, id: number) => tx.deleteFrom('contact_addresses').where('id', '=', id).execute();

/** Undo: the note an import added, when it is still as written. */
export const deleteNote = (tx: Db, contactId: number, body: string, at: string) =>
  tx
    .deleteFrom('contact_notes')
    .where('contact_id', '=', contactId)
    .where('body', '=', body)
    .where('created_at', '=', at)
    .executeTakeFirst();

export const tagsByTitle = (db: Db, orgId: number, titlesLc: string[]) =>
  titlesLc.length
    ? db.selectFrom('tags').select(['id', 'title']).where('org_id', '=', orgId).where('title_lc', 'in', titlesLc).execute()
    : Promise.resolve([]);

/** Undo's report: the rows whose changes it could not all take back (their `changes` hold `not_restored`). */
/** The rows an undo left values of, with their contact's names as they are now (one statement, none per row). */
export const rowsNotRestored = (db: Db, importId: number, limit: number) =>
  db
    .selectFrom('import_rows')
    .leftJoin('contacts', 'contacts.id', 'import_rows.contact_id')
    .select([
      'import_rows.contact_id',
      'import_rows.changes',
      'contacts.first_name',
      'contacts.last_name',
      'contacts.email',
      'contacts.phone',
    ])
    .where('import_rows.import_id', '=', importId)
    .where('import_rows.changes', 'like', '%"not_restored":[{%')
    .orderBy('import_rows.row_no')
    .limit(limit)
    .execute();

/**
 * Housekeeping: one import whose time is up loses `limit` of its staged rows a call, and goes itself with its last:
 * an upload cut off (still 'staging') since `stagingBefore`, and an import finished, undone or never run since
 * `keptBefore`. Answers the rows taken (the import counting one), 0 when none is due.
 */
export async function pruneImports(tx: Db, stagingBefore: string, keptBefore: string, limit: number): Promise<number> {
  const due = await tx
    .selectFrom('imports')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'staging'), eb('created_at', '<', stagingBefore)]),
        eb.and([eb('status', '=', 'uploaded'), eb('created_at', '<', keptBefore)]),
        eb.and([eb('status', 'in', ['done', 'failed', 'undone']), eb(eb.fn.coalesce('undone_at', 'finished_at'), '<', keptBefore)]),
      ]),
    )
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!due) return 0;
  const firstRows = tx.selectFrom('import_rows').select('row_no').where('import_id', '=', due.id).orderBy('row_no').limit(limit);
  const taken = Number(
    (await tx.deleteFrom('import_rows').where('import_id', '=', due.id).where('row_no', 'in', firstRows).executeTakeFirst()).numDeletedRows,
  );
  if (taken < limit) {
    await tx.deleteFrom('imports').where('id', '=', due.id).execute();
    return taken + 1;
  }
  return taken;
}
