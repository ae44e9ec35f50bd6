import type { Db } from '../../db/database.js';
import { nextVersion } from '../../db/versions.js';
import { ActivityType, recordSetChange } from '../contacts/contact-history.repository.js';
import type { CustomField } from './custom-fields.repository.js';

/* A drop-down's options (extension): added, renamed with the values contacts hold, removed. */

export type FieldOption = { id: number; custom_field_id: number; label: string };

export const insertOptions = async (tx: Db, fieldId: number, labels: string[]) => {
  if (labels.length)
    await tx
      .insertInto('custom_field_options')
      .values(labels.map((label) => ({ custom_field_id: fieldId, label })))
      .execute();
};

/** How many contacts hold each of these labels as their value of the field (a drop-down stores the option's label). */
export async function holdersOf(db: Db, fieldId: number, labels: string[]): Promise<Map<string, number>> {
  if (!labels.length) return new Map();
  const rows = await db
    .selectFrom('contact_custom_values')
    .select((eb) => ['value', eb.fn.countAll<number>().as('n')])
    .where('custom_field_id', '=', fieldId)
    .where('value', 'in', labels)
    .groupBy('value')
    .execute();
  return new Map(rows.map((r) => [r.value ?? '', Number(r.n)]));
}

export const deleteOptions = async (tx: Db, ids: number[]) => {
  if (ids.length) await tx.deleteFrom('custom_field_options').where('id', 'in', ids).execute();
};

/**
 * Renames an option, and with it the value of every contact holding it (a drop-down stores the label): each such
 * contact records the change and its version rises, as for a change made to it directly.
 */
export async function renameOption(tx: Db, field: CustomField, option: FieldOption, label: string, actorId: number, at: string) {
  await tx.updateTable('custom_field_options').set({ label }).where('id', '=', option.id).execute();
  const holders = tx.selectFrom('contact_custom_values').where('custom_field_id', '=', field.id).where('value', '=', option.label);
  await recordSetChange(
    tx,
    holders.select((eb) => ['contact_id', eb.val(option.label).as('old_value')]),
    {
      memberId: actorId,
      at,
      activity: ActivityType.customFieldsChanged,
      text: [`Custom field "${field.display_name}" changed from `, ` to ${label} (the option was renamed)`],
      audit: { action: 'update', dataType: `custom_field:${field.id}`, new: label },
    },
  );
  await tx
    .updateTable('contacts')
    .set((eb) => ({ version: nextVersion(eb), updated_at: at }))
    .where('id', 'in', holders.select('contact_id'))
    .execute();
  await tx
    .updateTable('contact_custom_values')
    .set({ value: label })
    .where('custom_field_id', '=', field.id)
    .where('value', '=', option.label)
    .execute();
}
