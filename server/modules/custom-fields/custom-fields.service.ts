import type { z } from 'zod';
import { type AuthContext, requireVendor } from '../../auth/access.js';
import {
  CUSTOM_FIELD_TYPES,
  type createFieldBody,
  type CustomFieldRecord,
  type listFieldsQuery,
  type UpdateFieldBody,
} from '../../contracts/custom-fields.js';
import type { Db, Store } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { normaliseValue } from '../contacts/contact-details.repository.js';
import * as repo from './custom-fields.repository.js';
import { fieldRecord } from './custom-fields.serializer.js';

export type CustomFieldsDeps = { store: Store };

/*
 * Custom-field definitions: an organisation-wide catalogue, like tags. Every member reads them and may add one
 * (creating a contact with a new field name adds it anyway); changing or deleting one changes what every member's
 * contacts show, so only the vendor may.
 */

/** Another organisation's field answers exactly like one that does not exist. */
export async function fieldOf(db: Db, auth: AuthContext, id: number): Promise<repo.CustomField> {
  const field = await repo.findField(db, auth.scope.orgId, id);
  if (!field) throw notFound(`There is no custom field ${id}.`);
  return field;
}

async function assertNameFree(db: Db, auth: AuthContext, name: string, exceptId?: number) {
  const other = await repo.findFieldByName(db, auth.scope.orgId, name);
  if (other && other.id !== exceptId)
    throw conflict(`A custom field named "${other.display_name}" already exists (names that differ only in capitals count as the same).`);
}

export async function listFields(ctx: CustomFieldsDeps, auth: AuthContext, query: z.output<typeof listFieldsQuery>) {
  const { db } = ctx.store;
  const { rows, total } = await repo.listFields(db, auth.scope.orgId, query);
  /* A drop-down's options are always listed (one query for the page); counting the contacts holding each field reads
     every value it has, so only with_counts=1 asks for it. */
  const [counts, options] = await Promise.all([
    query.with_counts
      ? repo.contactCounts(
          db,
          auth.scope,
          rows.map((f) => f.id),
        )
      : undefined,
    repo.optionsOf(
      db,
      rows.filter((f) => f.type_id === 6).map((f) => f.id),
    ),
  ]);
  const records = rows.map((f): CustomFieldRecord => ({
    ...fieldRecord(f),
    ...(counts && { contact_count: counts.get(f.id) ?? 0 }),
    ...(f.type_id === 6 && {
      options: options.filter((o) => o.custom_field_id === f.id).map((o) => ({ id: String(o.id), label: o.label })),
    }),
  }));
  return { records, total };
}

export const getField = async (ctx: CustomFieldsDeps, auth: AuthContext, id: number) => fieldOf(ctx.store.db, auth, id);

export function createField(ctx: CustomFieldsDeps, auth: AuthContext, body: z.output<typeof createFieldBody>) {
  return ctx.store.write(async (tx) => {
    await assertNameFree(tx, auth, body.display_name);
    const order = body.display_order ?? (await repo.nextDisplayOrder(tx, auth.scope.orgId));
    return repo.insertField(tx, {
      org_id: auth.scope.orgId,
      display_name: body.display_name,
      name_lc: body.display_name.toLowerCase(),
      type_id: body.type,
      display_order: order,
      created_at: now(),
    });
  });
}

/**
 * A new type must fit every value contacts hold: each must already be written as the new type writes it (a
 * checkbox 1 or 0, a date YYYY-MM-DD, a number). Otherwise nothing changes (409): values are never lost or
 * rewritten by a change of type. Any value fits text.
 */
async function assertValuesFit(tx: Db, field: repo.CustomField, type: number) {
  let misfits = 0;
  let example = '';
  for (const { value, n } of await repo.valueCounts(tx, field.id)) {
    const checked = await normaliseValue(tx, { id: field.id, type_id: type }, value);
    if ('error' in checked || checked.value !== value) {
      misfits += Number(n);
      example ||= value ?? '';
    }
  }
  if (misfits) {
    const typeName = CUSTOM_FIELD_TYPES[type as keyof typeof CUSTOM_FIELD_TYPES];
    throw conflict(
      `Custom field "${field.display_name}" holds ${misfits} value(s) that are not valid as ${typeName} (such as "${example}"); change or remove them first.`,
    );
  }
}

export function updateField(ctx: CustomFieldsDeps, auth: AuthContext, id: number, body: UpdateFieldBody) {
  requireVendor(auth, 'change custom fields');
  return ctx.store.write(async (tx) => {
    const field = await fieldOf(tx, auth, id);
    const changes = {
      display_name: body.display_name ?? field.display_name,
      display_order: body.display_order ?? field.display_order,
      type_id: body.type ?? field.type_id,
    };
    if (changes.display_name === field.display_name && changes.display_order === field.display_order && changes.type_id === field.type_id)
      return field;
    if (changes.display_name !== field.display_name) await assertNameFree(tx, auth, changes.display_name, field.id);
    if (changes.type_id !== field.type_id) await assertValuesFit(tx, field, changes.type_id);
    return repo.updateField(tx, field, changes);
  });
}

/** Deletes the definition; the values contacts hold for it go with it, irreversibly, each contact recording it. */
export function deleteField(ctx: CustomFieldsDeps, auth: AuthContext, id: number) {
  requireVendor(auth, 'delete custom fields');
  return ctx.store.write(async (tx) => repo.deleteField(tx, await fieldOf(tx, auth, id), auth.member.id, now()));
}
