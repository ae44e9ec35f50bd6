import type { z } from 'zod';
import { type contactFields, phoneDigits } from '../../contracts/contacts.js';
import { parseFlexibleDate } from '../../contracts/dates.js';
import type { Db } from '../../db/database.js';
import type { Contact, ContactUpdate } from '../../db/schema.js';
import { badRequest, Codes, type DebugCode } from '../../lib/errors.js';
import type { AuditEntry } from './contact-history.js';

export type ContactInput = z.output<typeof contactFields>;

const COPIED = ['first_name', 'last_name', 'ad_code', 'lead_id', 'token', 'return_lead_token', 'order_number', 'lead_vendor_product_name'] as const;

/** The contact row's own columns that a body sets (children such as phones are written separately). */
export function columnChanges(body: ContactInput): ContactUpdate {
  const changes: ContactUpdate = {};
  for (const key of COPIED) if (body[key] !== undefined) changes[key] = body[key];
  if (body.viewed !== undefined) changes.viewed = body.viewed ? 1 : 0;
  if (body.rating !== undefined) changes.rating = body.rating ?? 0;
  if (body.consent_date !== undefined) changes.consent_date = body.consent_date;
  if (body.category_id !== undefined) changes.folder_id = body.category_id;
  if (body.phone !== undefined) changes.phone = phoneDigits(body.phone);
  if (body.email !== undefined) changes.email = body.email;
  return changes;
}

const AUDITED: Record<string, keyof Contact> = {
  first_name: 'first_name', last_name: 'last_name', email: 'email', phone: 'phone', rating: 'rating', viewed: 'viewed',
  consent_date: 'consent_date', ad_code: 'ad_code', lead_id: 'lead_id', order_number: 'order_number',
};

/** Audit records for every audited column whose value changes; a folder change is the contract's 'moved'. */
export function auditChanges(before: Contact, changes: ContactUpdate): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const [dataType, column] of Object.entries(AUDITED)) {
    const next = changes[column as keyof ContactUpdate];
    if (next !== undefined && String(next ?? '') !== String(before[column] ?? '')) {
      entries.push({ action: 'update', dataType, old: String(before[column] ?? ''), new: String(next ?? '') });
    }
  }
  if (changes.folder_id !== undefined && changes.folder_id !== before.folder_id) {
    entries.push({ action: 'update', dataType: 'moved', old: String(before.folder_id ?? 0), new: String(changes.folder_id ?? 0) });
  }
  if (changes.owner_id !== undefined && changes.owner_id !== before.owner_id) {
    entries.push({ action: 'update', dataType: 'transferred', old: String(before.owner_id), new: String(changes.owner_id) });
  }
  return entries;
}

/**
 * The detail tables most contacts have no rows in, each with its bit in contacts.detail_kinds: reading a page of
 * records skips the tables where no contact has its bit. Whatever adds a row to one of these tables must set
 * its bit in the same transaction (a bit may stay set after the rows are gone; that costs only a query).
 */
export const DETAIL_KINDS = {
  addresses: 1, tags: 2, customValues: 4, notes: 8, names: 16, answers: 32, social: 64, crm: 128,
} as const;

/** The bits of the sparse tables that writeChildren may add rows to for this body. */
export function detailKindsOf(body: ContactInput): number {
  const k = DETAIL_KINDS;
  return (Object.keys(addressOf(body)).length ? k.addresses : 0) | (body.tags?.length ? k.tags : 0) | (body.custom_fields?.length ? k.customValues : 0)
    | (body.notes ? k.notes : 0) | (body.additional_name?.length ? k.names : 0)
    | (body.question?.length && body.answer?.length ? k.answers : 0) | (body.social_accounts?.length ? k.social : 0);
}

/**
 * Writes a body's phones, e-mails, address, names, answers, social accounts, tags, custom fields and note.
 * A new contact has none yet, which spares the look-ups of what it had.
 */
export async function writeChildren(tx: Db, contact: Contact, body: ContactInput, actorId: number, at: string, isNew: boolean) {
  await writePrimaryPhone(tx, contact.id, body, isNew);
  await writePrimaryEmail(tx, contact.id, body.email, isNew);
  await writeAddress(tx, contact.id, body, isNew);
  await appendRows(tx, contact.id, body, isNew);
  await attachTags(tx, contact, body.tags ?? []);
  await writeCustomFields(tx, contact, body.custom_fields ?? []);
  if (body.notes) await tx.insertInto('contact_notes').values({ contact_id: contact.id, author_id: actorId, body: body.notes, created_at: at }).execute();
}

const primaryOf = (tx: Db, table: 'contact_phones' | 'contact_emails' | 'contact_addresses', contactId: number) =>
  tx.selectFrom(table).select('id').where('contact_id', '=', contactId).where('is_primary', '=', 1).executeTakeFirst();

async function writePrimaryPhone(tx: Db, contactId: number, body: ContactInput, isNew: boolean) {
  const primary = isNew ? undefined : await tx.selectFrom('contact_phones').selectAll().where('contact_id', '=', contactId).where('is_primary', '=', 1).executeTakeFirst();
  if (body.phone === undefined) {
    if (primary && (body.phone_type !== undefined || body.phone_label !== undefined)) {
      await tx.updateTable('contact_phones').set({ type: body.phone_type ?? primary.type, label: body.phone_label ?? primary.label }).where('id', '=', primary.id).execute();
    }
    return;
  }
  const digits = phoneDigits(body.phone);
  if (!digits) {
    if (primary) await tx.deleteFrom('contact_phones').where('id', '=', primary.id).execute();
  } else if (primary) {
    await tx.updateTable('contact_phones')
      .set({ phone_number: digits, type: body.phone_type ?? primary.type, label: body.phone_label ?? primary.label })
      .where('id', '=', primary.id).execute();
  } else {
    await tx.insertInto('contact_phones')
      .values({ contact_id: contactId, phone_number: digits, type: body.phone_type ?? 1, label: body.phone_label ?? '', is_primary: 1 }).execute();
  }
}

async function writePrimaryEmail(tx: Db, contactId: number, email: string | undefined, isNew: boolean) {
  if (email === undefined) return;
  const primary = isNew ? undefined : await primaryOf(tx, 'contact_emails', contactId);
  if (!email) {
    if (primary) await tx.deleteFrom('contact_emails').where('id', '=', primary.id).execute();
  } else if (primary) {
    await tx.updateTable('contact_emails').set({ email_address: email, email_lc: email.toLowerCase() }).where('id', '=', primary.id).execute();
  } else {
    await tx.insertInto('contact_emails').values({ contact_id: contactId, email_address: email, email_lc: email.toLowerCase(), is_primary: 1 }).execute();
  }
}

/** The address fields a body gives. */
function addressOf(body: ContactInput) {
  const fields = {
    address: body.address1, address_2: body.address2, city: body.city, state: body.state,
    state_other: body.state_other, zip: body.zip, country: body.country,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

async function writeAddress(tx: Db, contactId: number, body: ContactInput, isNew: boolean) {
  const given = addressOf(body);
  if (!Object.keys(given).length) return;
  const primary = isNew ? undefined : await primaryOf(tx, 'contact_addresses', contactId);
  if (primary) await tx.updateTable('contact_addresses').set(given).where('id', '=', primary.id).execute();
  else await tx.insertInto('contact_addresses').values({ contact_id: contactId, ...given, type: 'home', is_primary: 1 }).execute();
}

/** Additional phones, names, question/answer pairs and social accounts are added, never replaced. */
async function appendRows(tx: Db, contactId: number, body: ContactInput, isNew: boolean) {
  if (body.additional_phone?.length) {
    const rows = isNew ? [] : await tx.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', contactId).execute();
    const existing = new Set(rows.map((p) => p.phone_number));
    if (isNew && body.phone) existing.add(phoneDigits(body.phone));
    const fresh = body.additional_phone
      .map((p) => ({ contact_id: contactId, phone_number: phoneDigits(p.number), type: p.phone_type, label: p.phone_label, is_primary: 0 }))
      .filter((p) => !existing.has(p.phone_number) && existing.add(p.phone_number));
    if (fresh.length) await tx.insertInto('contact_phones').values(fresh).execute();
  }
  if (body.additional_name?.length) {
    await tx.insertInto('contact_names').values(body.additional_name.map((n) => ({ contact_id: contactId, ...n }))).execute();
  }
  if (body.question?.length && body.answer?.length) {
    await tx.insertInto('contact_answers')
      .values(body.question.map((question, i) => ({ contact_id: contactId, question, answer: body.answer![i] ?? '' }))).execute();
  }
  if (body.social_accounts?.length) {
    await tx.insertInto('contact_social_accounts').values(body.social_accounts.map((s) => ({ contact_id: contactId, ...s }))).execute();
  }
}

async function attachTags(tx: Db, contact: Contact, titles: string[]) {
  const wanted = new Map(titles.map((t) => [t.toLowerCase(), t]));
  if (!wanted.size) return;
  await tx.insertInto('tags')
    .values([...wanted].map(([lc, title]) => ({ org_id: contact.org_id, title, title_lc: lc, created_at: contact.updated_at })))
    .onConflict((oc) => oc.columns(['org_id', 'title_lc']).doNothing())
    .execute();
  const tags = await tx.selectFrom('tags').select('id').where('org_id', '=', contact.org_id).where('title_lc', 'in', [...wanted.keys()]).execute();
  await tx.insertInto('contact_tags').values(tags.map((t) => ({ contact_id: contact.id, tag_id: t.id })))
    .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing()).execute();
}

type CustomFieldInput = NonNullable<ContactInput['custom_fields']>[number];

/**
 * Custom fields are named by display name; a name the organisation has not used yet creates the field with
 * the given type. Values are checked against the field's type; every bad value is reported at once.
 */
async function writeCustomFields(tx: Db, contact: Contact, values: CustomFieldInput[]) {
  const problems: DebugCode[] = [];
  for (const [i, input] of values.entries()) {
    const field = await findOrCreateField(tx, contact.org_id, input, contact.updated_at);
    const checked = await normaliseValue(tx, field, input.value);
    if ('error' in checked) {
      problems.push({ code: Codes.invalidField, field: `custom_fields.${i}.value`, reason: `custom_fields.${i}.value (${input.name}) ${checked.error}.` });
      continue;
    }
    if (checked.value === null) {
      await tx.deleteFrom('contact_custom_values').where('contact_id', '=', contact.id).where('custom_field_id', '=', field.id).execute();
    } else {
      await tx.insertInto('contact_custom_values').values({ contact_id: contact.id, custom_field_id: field.id, value: checked.value })
        .onConflict((oc) => oc.columns(['contact_id', 'custom_field_id']).doUpdateSet({ value: checked.value })).execute();
    }
  }
  if (problems.length) throw badRequest(problems);
}

async function findOrCreateField(tx: Db, orgId: number, input: CustomFieldInput, at: string) {
  const nameLc = input.name.toLowerCase();
  const existing = await tx.selectFrom('custom_fields').selectAll().where('org_id', '=', orgId).where('name_lc', '=', nameLc).executeTakeFirst();
  if (existing) return existing;
  const last = await tx.selectFrom('custom_fields').select((eb) => eb.fn.max('display_order').as('n')).where('org_id', '=', orgId).executeTakeFirst();
  return tx.insertInto('custom_fields')
    .values({ org_id: orgId, display_name: input.name, name_lc: nameLc, type_id: input.type, display_order: Number(last?.n ?? 0) + 1, created_at: at })
    .returningAll().executeTakeFirstOrThrow();
}

type Checked = { value: string | null } | { error: string };

export async function normaliseValue(tx: Db, field: { id: number; type_id: number }, raw: string | null): Promise<Checked> {
  if (raw === null || raw === '') return { value: null };
  switch (field.type_id) {
    case 2: {
      const v = raw.toLowerCase();
      if (['1', 'true', 'yes', 'on', 'checked'].includes(v)) return { value: '1' };
      if (['0', 'false', 'no', 'off', 'unchecked'].includes(v)) return { value: '0' };
      return { error: 'must be 1 or 0 for a checkbox' };
    }
    case 3: {
      const date = parseFlexibleDate(raw);
      return date ? { value: date } : { error: 'must be a date (YYYY-MM-DD or M/D/YYYY)' };
    }
    case 6: {
      const option = /^\d+$/.test(raw)
        ? await tx.selectFrom('custom_field_options').select('label').where('custom_field_id', '=', field.id).where('id', '=', Number(raw)).executeTakeFirst()
        : undefined;
      return option ? { value: option.label } : { error: `must be the id of one of this drop-down's options` };
    }
    case 7:
      return /^-?\d+(\.\d+)?$/.test(raw) ? { value: raw } : { error: 'must be a number' };
    default:
      return raw.length <= 5000 ? { value: raw } : { error: 'must be at most 5000 characters' };
  }
}
