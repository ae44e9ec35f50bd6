import type { AuthContext } from '../../auth/access.js';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { invalidField } from '../../lib/errors.js';
import { normaliseValue, setCustomValue } from '../contacts/contact-details.repository.js';
import { ActivityType } from '../contacts/contact-history.repository.js';
import { DETAIL_KINDS } from '../contacts/contact-rows.repository.js';
import { visibleContact } from '../contacts/contacts.service.js';
import * as fields from '../custom-fields/custom-fields.repository.js';
import { fieldOf } from '../custom-fields/custom-fields.service.js';
import { changeContactDetails, type DetailsDeps } from './detail-change.js';

/* A contact's custom-field values: every definition of the organisation, with this contact's value or null. */

export type FieldValue = { field: fields.CustomField; value: string | null };

export async function listContactValues(ctx: DetailsDeps, auth: AuthContext, contactId: number, page: PageRequest) {
  await visibleContact(ctx.store.db, auth.scope, contactId);
  const { rows, total } = await fields.pageOfContactValues(ctx.store.db, auth.scope.orgId, contactId, page);
  return { values: rows.map(({ value, ...field }): FieldValue => ({ field, value })), total };
}

export async function getContactValue(ctx: DetailsDeps, auth: AuthContext, contactId: number, fieldId: number): Promise<FieldValue> {
  const { db } = ctx.store;
  await visibleContact(db, auth.scope, contactId);
  const field = await fieldOf(db, auth, fieldId);
  return { field, value: await fields.contactValue(db, contactId, field.id) };
}

async function checkedValue(tx: Db, field: fields.CustomField, raw: string | null): Promise<string | null> {
  const checked = await normaliseValue(tx, field, raw);
  if ('error' in checked) throw invalidField('value', `value ${checked.error} (custom field "${field.display_name}" is ${typeOf(field)}).`);
  return checked.value;
}

const typeOf = (field: fields.CustomField) =>
  ({ 1: 'text', 2: 'a checkbox', 3: 'a date', 6: 'a drop-down', 7: 'numeric' })[field.type_id] ?? 'text';

/** Sets (or, with null or '', removes) the contact's value of one field. */
export function setContactValue(ctx: DetailsDeps, auth: AuthContext, contactId: number, fieldId: number, raw: string | null) {
  return changeContactDetails(ctx, auth, contactId, async (tx, contact) => {
    const field = await fieldOf(tx, auth, fieldId);
    const value = await checkedValue(tx, field, raw);
    const old = await fields.contactValue(tx, contact.id, field.id);
    const changed = await setCustomValue(tx, contact.id, field.id, value);
    return {
      result: { field, value } satisfies FieldValue,
      audit: changed ? [{ action: 'update' as const, dataType: `custom_field:${field.id}`, old: old ?? '', new: value ?? '' }] : [],
      activity: ActivityType.customFieldsChanged,
      text: value === null ? `Custom field "${field.display_name}" cleared` : `Custom field "${field.display_name}" set to "${value}"`,
      detailKinds: DETAIL_KINDS.customValues,
    };
  });
}
