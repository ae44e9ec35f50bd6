import type { Insertable, Selectable } from 'kysely';
import type { Scope } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';
import type { CustomFieldsTable } from '../../db/schema.js';
import { CONTACT_CHUNK, nextTurn } from '../../db/chunks.js';
import { bumpCatalog } from '../../db/versions.js';
import { ActivityType, recordSetChange } from '../contacts/contact-history.repository.js';

export type CustomField = Selectable<CustomFieldsTable>;

/** The order records list values in: display order, then age. */
export function listFields(db: Db, orgId: number, page: PageRequest) {
  return paged(
    db.selectFrom('custom_fields').where('org_id', '=', orgId),
    (q) => q.selectAll().orderBy('display_order').orderBy('id'),
    page,
  );
}

export const findField = (db: Db, orgId: number, id: number): Promise<CustomField | undefined> =>
  db.selectFrom('custom_fields').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();

/** Names are unique in an organisation without regard to case (contact creation names fields by them). */
export const findFieldByName = (db: Db, orgId: number, name: string): Promise<CustomField | undefined> =>
  db.selectFrom('custom_fields').selectAll().where('org_id', '=', orgId).where('name_lc', '=', name.toLowerCase()).executeTakeFirst();

export async function nextDisplayOrder(db: Db, orgId: number): Promise<number> {
  const last = await db
    .selectFrom('custom_fields')
    .select((eb) => eb.fn.max('display_order').as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return Number(last?.n ?? 0) + 1;
}

export const insertField = (tx: Db, values: Insertable<CustomFieldsTable>): Promise<CustomField> =>
  tx.insertInto('custom_fields').values(values).returningAll().executeTakeFirstOrThrow();

/** Records show their values' field names, types and order: a change to them changes the organisation's catalog. */
export async function updateField(tx: Db, field: CustomField, changes: Pick<CustomField, 'display_name' | 'display_order' | 'type_id'>) {
  const updated = await tx
    .updateTable('custom_fields')
    .set({ ...changes, name_lc: changes.display_name.toLowerCase() })
    .where('id', '=', field.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // Options mean something only to a drop-down; its values are their labels, which stay as text.
  if (field.type_id === 6 && changes.type_id !== 6)
    await tx.deleteFrom('custom_field_options').where('custom_field_id', '=', field.id).execute();
  await bumpCatalog(tx, field.org_id);
  return updated;
}

/** Each value the field holds, with how many contacts hold it: what a change of type must fit. */
export function valueCounts(db: Db, fieldId: number) {
  return db
    .selectFrom('contact_custom_values')
    .select((eb) => ['value', eb.fn.countAll<number>().as('n')])
    .where('custom_field_id', '=', fieldId)
    .groupBy('value')
    .execute();
}

/** Per field, the contacts in the scope that the default list shows (not trashed, not archived) holding a value. */
export async function contactCounts(db: Db, scope: Scope, fieldIds: number[]): Promise<Map<number, number>> {
  if (!fieldIds.length) return new Map();
  let query = db
    .selectFrom('contact_custom_values')
    .innerJoin('contacts', 'contacts.id', 'contact_custom_values.contact_id')
    .select((eb) => ['contact_custom_values.custom_field_id', eb.fn.countAll<number>().as('n')])
    .where('contact_custom_values.custom_field_id', 'in', fieldIds)
    .where('contacts.org_id', '=', scope.orgId)
    .where('contacts.trashed', '=', 0)
    .where('contacts.archived', '=', 0);
  if (scope.kind === 'team') query = query.where('contacts.owner_id', 'in', scope.memberIds);
  const rows = await query.groupBy('contact_custom_values.custom_field_id').execute();
  return new Map(rows.map((r) => [r.custom_field_id, Number(r.n)]));
}

export const optionsOf = async (db: Db, fieldIds: number[]) =>
  fieldIds.length ? db.selectFrom('custom_field_options').selectAll().where('custom_field_id', 'in', fieldIds).orderBy('id').execute() : [];

/**
 * Deletes a definition and, irreversibly, every value contacts hold for it, each contact recording the loss. As
 * for a tag: set-based, a chunk of contacts per statement in the one transaction, and a catalog raise.
 */
export async function deleteField(tx: Db, field: CustomField, actorId: number, at: string, chunkSize = CONTACT_CHUNK): Promise<void> {
  for (;;) {
    const last = await tx
      .selectFrom('contact_custom_values')
      .select('contact_id')
      .where('custom_field_id', '=', field.id)
      .orderBy('contact_id')
      .limit(1)
      .offset(chunkSize - 1)
      .executeTakeFirst();
    const chunk = tx
      .selectFrom('contact_custom_values')
      .where('custom_field_id', '=', field.id)
      .$if(!!last, (q) => q.where('contact_id', '<=', last!.contact_id));
    await recordSetChange(
      tx,
      chunk.select((eb) => ['contact_id', eb.fn.coalesce('value', eb.val('')).as('old_value')]),
      {
        memberId: actorId,
        at,
        activity: ActivityType.customFieldsChanged,
        text: `Custom field "${field.display_name}" removed: the field was deleted`,
        audit: { action: 'update', dataType: `custom_field:${field.id}` },
      },
    );
    await tx
      .deleteFrom('contact_custom_values')
      .where('custom_field_id', '=', field.id)
      .$if(!!last, (q) => q.where('contact_id', '<=', last!.contact_id))
      .execute();
    if (!last) break;
    await nextTurn();
  }
  await tx.deleteFrom('custom_field_options').where('custom_field_id', '=', field.id).execute();
  await tx.deleteFrom('custom_fields').where('id', '=', field.id).execute();
  await bumpCatalog(tx, field.org_id);
}

/** A page of every definition of the organisation with this contact's value, or null. */
export function pageOfContactValues(db: Db, orgId: number, contactId: number, page: PageRequest) {
  const base = db
    .selectFrom('custom_fields')
    .leftJoin('contact_custom_values as v', (join) =>
      join.onRef('v.custom_field_id', '=', 'custom_fields.id').on('v.contact_id', '=', contactId),
    )
    .where('custom_fields.org_id', '=', orgId);
  return paged(
    base,
    (q) => q.selectAll('custom_fields').select('v.value').orderBy('custom_fields.display_order').orderBy('custom_fields.id'),
    page,
  );
}

export async function contactValue(db: Db, contactId: number, fieldId: number): Promise<string | null> {
  const row = await db
    .selectFrom('contact_custom_values')
    .select('value')
    .where('contact_id', '=', contactId)
    .where('custom_field_id', '=', fieldId)
    .executeTakeFirst();
  return row?.value ?? null;
}
