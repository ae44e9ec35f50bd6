import type { z } from 'zod';
import { type AuthContext, requireVendor } from '../../auth/access.js';
import {
  CUSTOM_FIELD_TYPES,
  type createFieldBody,
  type CustomFieldRecord,
  type listFieldsQuery,
  type OptionEntry,
  type UpdateFieldBody,
} from '../../contracts/custom-fields.js';
import type { Db, Store } from '../../db/database.js';
import { conflict, invalidField, notFound, unknownReference } from '../../lib/errors.js';
import { lockKeys } from '../../db/locks.js';
import { bumpCatalog } from '../../db/versions.js';
import { now } from '../../lib/time.js';
import { normaliseValue } from '../contacts/contact-details.repository.js';
import * as repo from './custom-fields.repository.js';
import * as optionsRepo from './custom-field-options.repository.js';
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

/** A definition as GET one, POST and PUT answer it: a drop-down with its options (extension). */
export async function presentField(db: Db, field: repo.CustomField): Promise<CustomFieldRecord> {
  if (field.type_id !== 6) return fieldRecord(field);
  const options = await repo.optionsOf(db, [field.id]);
  return { ...fieldRecord(field), options: options.map((o) => ({ id: String(o.id), label: o.label })) };
}

export const getField = async (ctx: CustomFieldsDeps, auth: AuthContext, id: number) =>
  presentField(ctx.store.db, await fieldOf(ctx.store.db, auth, id));

export function createField(ctx: CustomFieldsDeps, auth: AuthContext, body: z.output<typeof createFieldBody>) {
  return ctx.store.write(async (tx) => {
    await assertNameFree(tx, auth, body.display_name);
    const order = body.display_order ?? (await repo.nextDisplayOrder(tx, auth.scope.orgId));
    const field = await repo.insertField(tx, {
      org_id: auth.scope.orgId,
      display_name: body.display_name,
      name_lc: body.display_name.toLowerCase(),
      type_id: body.type,
      display_order: order,
      created_at: now(),
    });
    await optionsRepo.insertOptions(
      tx,
      field.id,
      (body.options ?? []).map((o) => o.label),
    );
    return presentField(tx, field);
  });
}

/**
 * A drop-down's options become the list given (extension): an entry with an id renames that option, and the value of
 * every contact holding it; a label alone adds an option, or keeps the one of that label (without case); an option
 * left out is removed, unless contacts hold it (409: values are never dropped by a change of definition).
 */
async function setOptions(tx: Db, auth: AuthContext, field: repo.CustomField, wanted: OptionEntry[]) {
  if (field.type_id !== 6) throw invalidField('options', 'options are only for a drop-down field (type 6).');
  // Two editors of one field's options at once on PostgreSQL: the second reads the list as the first left it.
  await lockKeys(tx, 'custom field options', [String(field.id)]);
  const current = await repo.optionsOf(tx, [field.id]);
  const byLabel = (label: string) => current.find((o) => o.label.toLowerCase() === label.toLowerCase());
  const plan = wanted.map((entry) => {
    const option = entry.id !== undefined ? current.find((o) => o.id === entry.id) : byLabel(entry.label);
    if (entry.id !== undefined && !option)
      throw unknownReference('options', `options names option ${entry.id}, which "${field.display_name}" does not have.`);
    return { option, label: entry.label };
  });
  const kept = new Set(plan.flatMap((p) => (p.option ? [p.option.id] : [])));
  const removed = current.filter((o) => !kept.has(o.id));
  const held = await optionsRepo.holdersOf(
    tx,
    field.id,
    removed.map((o) => o.label),
  );
  if (held.size) {
    const [label, n] = [...held][0]!;
    throw conflict(`${n} contact(s) hold "${label}" in "${field.display_name}": change their value before removing the option.`);
  }
  const at = now();
  await optionsRepo.deleteOptions(
    tx,
    removed.map((o) => o.id),
  );
  for (const { option, label } of plan) {
    if (option && option.label !== label) await optionsRepo.renameOption(tx, field, option, label, auth.member.id, at);
  }
  await optionsRepo.insertOptions(
    tx,
    field.id,
    plan.filter((p) => !p.option).map((p) => p.label),
  );
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
    const same =
      changes.display_name === field.display_name && changes.display_order === field.display_order && changes.type_id === field.type_id;
    if (changes.display_name !== field.display_name) await assertNameFree(tx, auth, changes.display_name, field.id);
    if (changes.type_id !== field.type_id) await assertValuesFit(tx, field, changes.type_id);
    const updated = same ? field : await repo.updateField(tx, field, changes);
    if (body.options) {
      await setOptions(tx, auth, updated, body.options);
      if (same) await bumpCatalog(tx, field.org_id);
    }
    return presentField(tx, updated);
  });
}

/** Deletes the definition; the values contacts hold for it go with it, irreversibly, each contact recording it. */
export function deleteField(ctx: CustomFieldsDeps, auth: AuthContext, id: number) {
  requireVendor(auth, 'delete custom fields');
  return ctx.store.write(async (tx) => repo.deleteField(tx, await fieldOf(tx, auth, id), auth.member.id, now()));
}
