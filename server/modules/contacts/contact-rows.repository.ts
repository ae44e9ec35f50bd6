import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Contact, ContactUpdate, Database, NewContact } from '../../db/schema.js';
import { nextVersion } from '../../db/versions.js';
import { adjustCounts, type CountedGroup, moveCounts, shiftCounts } from './contact-counts.repository.js';
import { ActivityType, recordSetChange } from './contact-history.repository.js';
import { type ContactInput, addressOf } from './contact-input.js';
import { indexLater } from './contact-search.repository.js';

/*
 * The one way to write contact rows. Whatever inserts, changes, moves or removes contacts goes through here, so
 * that the three things the store keeps beside them stay true in the same transaction (docs/store.md): the
 * contact's version (record cache), the kept counts per owner, folder and state, and the search indexes (the word
 * index's rows carry the owner and exist only outside the trash and the archive: whatever changes those writes the
 * rows again).
 */

/**
 * The detail tables most contacts have no rows in, each with its bit in contacts.detail_kinds: reading a page of
 * records skips the tables where no contact has its bit. Whatever adds a row to one of these tables must set
 * its bit in the same transaction (a bit may stay set after the rows are gone; that costs only a query).
 */
export const DETAIL_KINDS = {
  addresses: 1,
  tags: 2,
  customValues: 4,
  notes: 8,
  names: 16,
  answers: 32,
  social: 64,
  crm: 128,
} as const;

/** The bits of the sparse tables that writing this body's details may add rows to. */
export function detailKindsOf(body: ContactInput): number {
  const k = DETAIL_KINDS;
  return (
    (Object.keys(addressOf(body)).length ? k.addresses : 0) |
    (body.tags?.length ? k.tags : 0) |
    (body.custom_fields?.length ? k.customValues : 0) |
    (body.notes ? k.notes : 0) |
    (body.additional_name?.length ? k.names : 0) |
    (body.question?.length && body.answer?.length ? k.answers : 0) |
    (body.social_accounts?.length ? k.social : 0)
  );
}

/** Inserts a contact at version 0 and counts it. Its search terms follow once its details are written (`indexNewContact`). */
/* Prepared, one template per set of columns given: a dial session of 500 new contacts inserts 500 rows one by one. */
const insertContactRow = prepared<null, Record<string, unknown>, Contact>('insert contact', (db, _, p) =>
  db
    .insertInto('contacts')
    .values(p as unknown as NewContact)
    .returningAll(),
);

export async function insertContact(tx: Db, values: NewContact): Promise<Contact> {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const [contact] = await insertContactRow(tx, null, given);
  if (!contact) throw new Error('The contact row was not inserted.');
  await adjustCounts(tx, [], [contact]);
  return contact;
}

/** Rows per multi-row statement of a batch of new contacts or their details (well under either store's parameter limit). */
export const ROWS_PER_STATEMENT = 500;

/** Column lists in the order rows give them, sorted: a chunk's rows repeat a few, so each is sorted once. */
const sortedColumns = new Map<string, string>();

/**
 * The columns a row gives (a value left undefined is not given: Kysely leaves it out), as a key. Rows are not copied
 * without their undefined values: that and sorting each row's keys took some 15 us a contact in an import's profile.
 */
function columnsOf(row: object): string {
  let given = '';
  for (const column in row) if ((row as Record<string, unknown>)[column] !== undefined) given += `${column},`;
  let key = sortedColumns.get(given);
  if (key === undefined) {
    key = given.split(',').slice(0, -1).sort().join(',');
    if (sortedColumns.size < 1_000) sortedColumns.set(given, key);
  }
  return key;
}

/**
 * Rows grouped by the columns they give, each group in the rows' order: a multi-row insert has one column list, and a
 * column a row leaves out must take its default (SQLite has no DEFAULT in VALUES), so rows of different columns go in
 * statements of their own. `consecutive` keeps runs in order (ids then follow the rows).
 */
export function byColumns<T extends object>(rows: T[], consecutive = false): T[][] {
  const groups: T[][] = [];
  const open = new Map<string, T[]>();
  let last = '';
  for (const row of rows) {
    const key = columnsOf(row);
    const group = consecutive ? (key === last ? groups[groups.length - 1] : undefined) : open.get(key);
    if (group && group.length < ROWS_PER_STATEMENT) group.push(row);
    else {
      groups.push([row]);
      open.set(key, groups[groups.length - 1]!);
    }
    last = key;
  }
  return groups;
}

/**
 * Inserts new contacts at version 0, a multi-row statement per run of rows with the same columns, and counts them
 * (one change per partition): the contacts in the order given. Their search terms follow once their details are
 * written (`indexNewContacts`).
 */
export async function insertContacts(tx: Db, values: NewContact[]): Promise<Contact[]> {
  const contacts: Contact[] = [];
  for (const run of byColumns(values, true)) {
    const rows = await tx.insertInto('contacts').values(run).returningAll().execute();
    if (rows.length !== run.length) throw new Error('Not every contact row was inserted.');
    // Ids are given in the order of the VALUES (a sequence's nextval or SQLite's next rowid, row by row); RETURNING's
    // own order is not promised by either store.
    contacts.push(...rows.sort((a, b) => a.id - b.id));
  }
  await adjustCounts(tx, [], contacts);
  return contacts;
}

/** New contacts are indexed for search (all their texts at once) from their rows at the end of the write's batch. */
export const indexNewContacts = (tx: Db, contacts: Contact[]) =>
  indexLater(
    tx,
    contacts.map((c) => c.id),
    'new',
  );

/** A new contact is indexed for search from its rows once its details are written, at the end of the write's batch. */
export const indexNewContact = (tx: Db, contact: Contact) => indexLater(tx, [contact.id], 'new');

export type RowUpdate = {
  changes: ContactUpdate;
  at: string;
  /** Bits of sparse detail tables that this change added rows to. */
  detailKinds?: number;
  /** Its names, e-mails or phones changed in their own tables: the search indexes follow. */
  searchChanged?: boolean;
  /** Instead, phones or e-mail addresses were only added (none changed or went away): their terms are only added. */
  searchAdded?: boolean;
};

const SEARCHED_COLUMNS = ['first_name', 'last_name', 'email', 'phone'] as const;
const COUNTED_COLUMNS = ['owner_id', 'folder_id', 'trashed', 'archived'] as const;
/** What the word index's rows depend on beside the searched text. */
const WORD_SCOPE_COLUMNS = ['owner_id', 'trashed', 'archived'] as const;

/**
 * The one update of a contact row, for a change to the row or to its own detail rows (then `changes` may be empty):
 * raises its version and modification time, and keeps counts and search terms in step.
 */
export async function updateContactRow(tx: Db, before: Contact, update: RowUpdate): Promise<Contact> {
  const { changes, at, detailKinds = 0 } = update;
  const updated = await tx
    .updateTable('contacts')
    .set((eb) => ({
      ...changes,
      ...(detailKinds && { detail_kinds: eb('detail_kinds', '|', detailKinds) }),
      version: nextVersion(eb),
      updated_at: at,
    }))
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (COUNTED_COLUMNS.some((c) => before[c] !== updated[c])) await adjustCounts(tx, [before], [updated]);
  const columnsChanged = SEARCHED_COLUMNS.some((c) => before[c] !== updated[c]);
  if (update.searchChanged || columnsChanged) await indexLater(tx, [updated.id], 'all');
  else if (update.searchAdded) await indexLater(tx, [updated.id], 'added');
  else if (WORD_SCOPE_COLUMNS.some((c) => before[c] !== updated[c])) await indexLater(tx, [updated.id], 'words');
  return updated;
}

/** Moves contacts to the trash (or back out of it), set-based. */
export async function setTrashed(tx: Db, contacts: Contact[], trashed: boolean, at: string): Promise<void> {
  const changing = contacts.filter((c) => !!c.trashed !== trashed);
  if (!changing.length) return;
  await tx
    .updateTable('contacts')
    .set((eb) => ({ trashed: trashed ? 1 : 0, trashed_at: trashed ? at : null, version: nextVersion(eb), updated_at: at }))
    .where(
      'id',
      'in',
      changing.map((c) => c.id),
    )
    .execute();
  await adjustCounts(
    tx,
    changing,
    changing.map((c) => ({ ...c, trashed: trashed ? 1 : 0 })),
  );
  await indexLater(
    tx,
    changing.map((c) => c.id),
    'words',
  );
}

/** Deletes contacts for good; their details go with them (ON DELETE CASCADE), their history stays. */
export async function deleteContactRows(tx: Db, contacts: Contact[]): Promise<void> {
  if (!contacts.length) return;
  await indexLater(
    tx,
    contacts.map((c) => c.id),
    'all',
  );
  await tx
    .deleteFrom('contacts')
    .where(
      'id',
      'in',
      contacts.map((c) => c.id),
    )
    .execute();
  await adjustCounts(tx, contacts, []);
}

type SetMove = { orgId: number; actorId: number; at: string };

/** Every contact of some folders moves to another folder (or none), audited as 'moved' each: a folder deleted. */
export async function moveFolderContents(tx: Db, move: SetMove & { folderIds: number[]; targetId: number | null }): Promise<void> {
  await tx
    .insertInto('contact_audit')
    .columns(['contact_id', 'member_id', 'action', 'data_type', 'old_value', 'new_value', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('contacts')
        .where('org_id', '=', move.orgId)
        .where('folder_id', 'in', move.folderIds)
        .select((s) => [
          'id',
          s.val(move.actorId).as('member_id'),
          s.val('update').as('action'),
          s.val('moved').as('data_type'),
          s.cast<string>('folder_id', 'text').as('old_value'),
          s.val(String(move.targetId ?? 0)).as('new_value'),
          s.val(move.at).as('created_at'),
        ]),
    )
    .execute();
  await tx
    .updateTable('contacts')
    .set((eb) => ({ folder_id: move.targetId, version: nextVersion(eb), updated_at: move.at }))
    .where('org_id', '=', move.orgId)
    .where('folder_id', 'in', move.folderIds)
    .execute();
  await moveCounts(tx, { orgId: move.orgId, folderIds: move.folderIds }, { folderId: move.targetId });
}

/** Every contact of one owner goes to another, audited as 'transferred' each: a member deleted. */
export async function transferAllContacts(tx: Db, move: SetMove & { fromId: number; toId: number }): Promise<void> {
  const moving = (await tx.selectFrom('contacts').select('id').where('owner_id', '=', move.fromId).execute()).map((r) => r.id);
  await tx
    .insertInto('contact_audit')
    .columns(['contact_id', 'member_id', 'action', 'data_type', 'old_value', 'new_value', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('contacts')
        .where('owner_id', '=', move.fromId)
        .select((s) => [
          'id',
          s.val(move.actorId).as('member_id'),
          s.val('update').as('action'),
          s.val('transferred').as('data_type'),
          s.val(String(move.fromId)).as('old_value'),
          s.val(String(move.toId)).as('new_value'),
          s.val(move.at).as('created_at'),
        ]),
    )
    .execute();
  await tx
    .updateTable('contacts')
    .set((eb) => ({ owner_id: move.toId, version: nextVersion(eb), updated_at: move.at }))
    .where('owner_id', '=', move.fromId)
    .execute();
  await moveCounts(tx, { orgId: move.orgId, ownerId: move.fromId }, { ownerId: move.toId });
  await indexLater(tx, moving, 'words');
}

/*
 * Bulk changes (the grid's actions on selected contacts or a whole filtered view) run as background jobs that call
 * these for one chunk of contact ids at a time. Each keeps versions, counts, audit and activities for the chunk with
 * one statement per table, whatever its size: contacts that the change would not change (already tagged, already in
 * the folder) are left out of all of it. Only contacts of `orgId` are touched; that the actor may change each id is
 * the job's to check. A chunk's ids appear once in each statement: keep it to at most BULK_CHUNK.
 */
export const BULK_CHUNK = 5_000;

export type BulkChunk = { orgId: number; contactIds: number[]; actorId: number; at: string };
type Where = (eb: ExpressionBuilder<Database, 'contacts'>) => Expression<SqlBool>;

const inChunk =
  (c: BulkChunk, also: Where): Where =>
  (eb) =>
    eb.and([eb('contacts.org_id', '=', c.orgId), eb('contacts.id', 'in', c.contactIds), also(eb)]);

/** Raises the version and modification time of the chunk's contacts that `changing` picks; answers how many. */
async function touch(tx: Db, changing: Where, at: string, detailKinds = 0): Promise<number> {
  const result = await tx
    .updateTable('contacts')
    .set((eb) => ({ version: nextVersion(eb), updated_at: at, ...(detailKinds && { detail_kinds: eb('detail_kinds', '|', detailKinds) }) }))
    .where(changing)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const holds =
  (tagId: number): Where =>
  (eb) =>
    eb.exists(
      eb
        .selectFrom('contact_tags')
        .select('contact_tags.tag_id')
        .whereRef('contact_tags.contact_id', '=', 'contacts.id')
        .where('contact_tags.tag_id', '=', tagId),
    );

/** Gives a chunk of contacts a tag; those holding it already are left alone. Answers how many changed. */
export async function addTagToContacts(tx: Db, c: BulkChunk & { tag: { id: number; title: string } }): Promise<number> {
  if (!c.contactIds.length) return 0;
  const changing = inChunk(c, (eb) => eb.not(holds(c.tag.id)(eb)));
  await recordSetChange(
    tx,
    tx
      .selectFrom('contacts')
      .where(changing)
      .select((eb) => ['contacts.id as contact_id', eb.val('').as('old_value')]),
    {
      memberId: c.actorId,
      at: c.at,
      activity: ActivityType.tagsChanged,
      text: `Tag "${c.tag.title}" added`,
      audit: { action: 'update', dataType: 'tag_added', new: c.tag.title },
    },
  );
  const changed = await touch(tx, changing, c.at, DETAIL_KINDS.tags);
  await tx
    .insertInto('contact_tags')
    .columns(['contact_id', 'tag_id'])
    .expression(
      tx
        .selectFrom('contacts')
        .where(changing)
        .select((eb) => ['contacts.id', eb.val(c.tag.id).as('tag_id')]),
    )
    .execute();
  return changed;
}

/** Takes a tag from a chunk of contacts; those not holding it are left alone. Answers how many changed. */
export async function removeTagFromContacts(tx: Db, c: BulkChunk & { tag: { id: number; title: string } }): Promise<number> {
  if (!c.contactIds.length) return 0;
  const changing = inChunk(c, holds(c.tag.id));
  await recordSetChange(
    tx,
    tx
      .selectFrom('contacts')
      .where(changing)
      .select((eb) => ['contacts.id as contact_id', eb.val(c.tag.title).as('old_value')]),
    {
      memberId: c.actorId,
      at: c.at,
      activity: ActivityType.tagsChanged,
      text: `Tag "${c.tag.title}" removed`,
      audit: { action: 'update', dataType: 'tag_removed' },
    },
  );
  const changed = await touch(tx, changing, c.at);
  await tx
    .deleteFrom('contact_tags')
    .where('tag_id', '=', c.tag.id)
    .where('contact_id', 'in', tx.selectFrom('contacts').select('id').where('org_id', '=', c.orgId).where('id', 'in', c.contactIds))
    .execute();
  return changed;
}

/** The partitions (owner, folder, state) the contacts `changing` picks are counted in, before they move. */
const countedGroups = (tx: Db, changing: Where): Promise<CountedGroup[]> =>
  tx
    .selectFrom('contacts')
    .where(changing)
    .select((eb) => ['org_id', 'owner_id', 'folder_id', 'trashed', 'archived', eb.fn.countAll<number>().as('n')])
    .groupBy(['org_id', 'owner_id', 'folder_id', 'trashed', 'archived'])
    .execute();

/** Moves a chunk of contacts to a folder (`null`: none), audited as 'moved' each. Answers how many moved. */
export async function moveContactsToFolder(tx: Db, c: BulkChunk & { folderId: number | null }): Promise<number> {
  if (!c.contactIds.length) return 0;
  const target = c.folderId ?? 0;
  const changing = inChunk(c, (eb) => eb(eb.fn.coalesce('contacts.folder_id', sql.lit(0)), '!=', target));
  const groups = await countedGroups(tx, changing);
  await recordSetChange(
    tx,
    tx
      .selectFrom('contacts')
      .where(changing)
      .select((eb) => [
        'contacts.id as contact_id',
        eb.cast<string>(eb.fn.coalesce('contacts.folder_id', sql.lit(0)), 'text').as('old_value'),
      ]),
    {
      memberId: c.actorId,
      at: c.at,
      activity: ActivityType.moved,
      text: ['Contact moved from folder ', ` to folder ${target}`],
      audit: { action: 'update', dataType: 'moved', new: String(target) },
    },
  );
  const moved = await tx
    .updateTable('contacts')
    .set((eb) => ({ folder_id: c.folderId, version: nextVersion(eb), updated_at: c.at }))
    .where(changing)
    .executeTakeFirst();
  await shiftCounts(tx, groups, { folder_id: c.folderId });
  return Number(moved.numUpdatedRows);
}

/** Transfers a chunk of contacts to a member, audited as 'transferred' each. Answers how many changed owner. */
export async function transferContacts(tx: Db, c: BulkChunk & { toId: number }): Promise<number> {
  if (!c.contactIds.length) return 0;
  const changing = inChunk(c, (eb) => eb('contacts.owner_id', '!=', c.toId));
  const groups = await countedGroups(tx, changing);
  await recordSetChange(
    tx,
    tx
      .selectFrom('contacts')
      .where(changing)
      .select((eb) => ['contacts.id as contact_id', eb.cast<string>('contacts.owner_id', 'text').as('old_value')]),
    {
      memberId: c.actorId,
      at: c.at,
      activity: ActivityType.transferred,
      text: ['Contact transferred from member ', ` to member ${c.toId}`],
      audit: { action: 'update', dataType: 'transferred', new: String(c.toId) },
    },
  );
  const moving = (await tx.selectFrom('contacts').select('id').where(changing).execute()).map((r) => r.id);
  const moved = await tx
    .updateTable('contacts')
    .set((eb) => ({ owner_id: c.toId, version: nextVersion(eb), updated_at: c.at }))
    .where(changing)
    .executeTakeFirst();
  await shiftCounts(tx, groups, { owner_id: c.toId });
  await indexLater(tx, moving, 'words');
  return Number(moved.numUpdatedRows);
}
