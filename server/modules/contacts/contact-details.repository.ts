import { phoneDigits } from '../../contracts/contacts.js';
import { parseFlexibleDate } from '../../contracts/dates.js';
import type { Db } from '../../db/database.js';
import { insertLater } from '../../db/later.js';
import { preparedLater } from '../../db/prepared.js';
import type { Contact } from '../../db/schema.js';
import { type FieldProblem, invalidFields } from '../../lib/errors.js';
import { addressOf, type ContactInput } from './contact-input.js';
import { byColumns, ROWS_PER_STATEMENT } from './contact-rows.repository.js';

/*
 * A contact's own detail rows as a create or update body gives them: phones, e-mails, address, names, answers,
 * social accounts, tags and custom fields (notes are added on their own, `addNote`). Each writer answers whether it changed anything, so that an
 * update that changes nothing records nothing; the caller raises the contact's version when one did
 * (contact-rows.repository.ts).
 */

type Details = { contact: Pick<Contact, 'id' | 'org_id'>; body: ContactInput; at: string; isNew: boolean };

/** Writes a body's details; a new contact has none yet, which spares the look-ups of what it had. */
export async function writeDetails(tx: Db, d: Details): Promise<boolean> {
  const changed = [
    await writePrimaryPhone(tx, d),
    await writePrimaryEmail(tx, d),
    await writeAddress(tx, d),
    await appendRows(tx, d),
    await attachTags(tx, d.contact, d.body.tags ?? [], d.at),
    await writeCustomFields(tx, d.contact, d.body.custom_fields ?? [], d.at),
  ];
  return changed.some(Boolean);
}

export async function addNote(tx: Db, contactId: number, body: string | undefined, actorId: number, at: string): Promise<boolean> {
  if (!body) return false;
  await insertLater(tx, tx.insertInto('contact_notes').values({ contact_id: contactId, author_id: actorId, body, created_at: at }));
  return true;
}

const primaryOf = (tx: Db, table: 'contact_phones' | 'contact_emails' | 'contact_addresses', contactId: number) =>
  tx.selectFrom(table).selectAll().where('contact_id', '=', contactId).where('is_primary', '=', 1).executeTakeFirst();

/* Prepared: a new contact's first phone and e-mail, written for each of a dial session's new contacts in turn; each goes
 * with the write's next statement (db/later.ts), which reads them if it needs to. */
type NewPhone = { contact_id: number; phone_number: string; type: number; label: string; is_primary: number };
const insertPhone = preparedLater<null, NewPhone>('insert phone', (db, _, p) => db.insertInto('contact_phones').values(p));
type NewEmail = { contact_id: number; email_address: string; email_lc: string; is_primary: number };
const insertEmail = preparedLater<null, NewEmail>('insert e-mail', (db, _, p) => db.insertInto('contact_emails').values(p));

async function writePrimaryPhone(tx: Db, { contact, body, isNew }: Details): Promise<boolean> {
  if (body.phone === undefined && body.phone_type === undefined && body.phone_label === undefined) return false;
  const primary = isNew
    ? undefined
    : ((await primaryOf(tx, 'contact_phones', contact.id)) as
        { id: number; phone_number: string; type: number; label: string } | undefined);
  const digits = body.phone === undefined ? primary?.phone_number : phoneDigits(body.phone);
  if (!digits) {
    if (!primary) return false;
    await tx.deleteFrom('contact_phones').where('id', '=', primary.id).execute();
    return true;
  }
  const values = { phone_number: digits, type: body.phone_type ?? primary?.type ?? 1, label: body.phone_label ?? primary?.label ?? '' };
  if (!primary) {
    await insertPhone(tx, null, { contact_id: contact.id, ...values, is_primary: 1 });
    return true;
  }
  if (values.phone_number === primary.phone_number && values.type === primary.type && values.label === primary.label) return false;
  await tx.updateTable('contact_phones').set(values).where('id', '=', primary.id).execute();
  return true;
}

async function writePrimaryEmail(tx: Db, { contact, body, isNew }: Details): Promise<boolean> {
  const email = body.email;
  if (email === undefined) return false;
  const primary = isNew
    ? undefined
    : ((await primaryOf(tx, 'contact_emails', contact.id)) as { id: number; email_address: string } | undefined);
  if (!email) {
    if (!primary) return false;
    await tx.deleteFrom('contact_emails').where('id', '=', primary.id).execute();
  } else if (primary) {
    if (primary.email_address === email) return false;
    await tx
      .updateTable('contact_emails')
      .set({ email_address: email, email_lc: email.toLowerCase() })
      .where('id', '=', primary.id)
      .execute();
  } else {
    await insertEmail(tx, null, { contact_id: contact.id, email_address: email, email_lc: email.toLowerCase(), is_primary: 1 });
  }
  return true;
}

async function writeAddress(tx: Db, { contact, body, isNew }: Details): Promise<boolean> {
  const given = addressOf(body);
  if (!Object.keys(given).length) return false;
  const primary = isNew ? undefined : ((await primaryOf(tx, 'contact_addresses', contact.id)) as Record<string, unknown> | undefined);
  if (!primary) {
    await tx
      .insertInto('contact_addresses')
      .values({ contact_id: contact.id, ...given, type: 'home', is_primary: 1 })
      .execute();
    return true;
  }
  if (Object.entries(given).every(([k, v]) => primary[k] === v)) return false;
  await tx
    .updateTable('contact_addresses')
    .set(given)
    .where('id', '=', primary.id as number)
    .execute();
  return true;
}

/** Additional phones, names, question/answer pairs and social accounts are added, never replaced. */
async function appendRows(tx: Db, { contact, body, isNew }: Details): Promise<boolean> {
  let changed = false;
  if (body.additional_phone?.length) {
    const rows = isNew ? [] : await tx.selectFrom('contact_phones').select('phone_number').where('contact_id', '=', contact.id).execute();
    const existing = new Set(rows.map((p) => p.phone_number));
    if (isNew && body.phone) existing.add(phoneDigits(body.phone));
    const fresh = body.additional_phone
      .map((p) => ({
        contact_id: contact.id,
        phone_number: phoneDigits(p.number),
        type: p.phone_type,
        label: p.phone_label,
        is_primary: 0,
      }))
      .filter((p) => !existing.has(p.phone_number) && existing.add(p.phone_number));
    if (fresh.length) await tx.insertInto('contact_phones').values(fresh).execute();
    changed ||= fresh.length > 0;
  }
  if (body.additional_name?.length) {
    await tx
      .insertInto('contact_names')
      .values(body.additional_name.map((n) => ({ contact_id: contact.id, ...n })))
      .execute();
    changed = true;
  }
  if (body.question?.length && body.answer?.length) {
    await tx
      .insertInto('contact_answers')
      .values(body.question.map((question, i) => ({ contact_id: contact.id, question, answer: body.answer![i] ?? '' })))
      .execute();
    changed = true;
  }
  if (body.social_accounts?.length) {
    await tx
      .insertInto('contact_social_accounts')
      .values(body.social_accounts.map((s) => ({ contact_id: contact.id, ...s })))
      .execute();
    changed = true;
  }
  return changed;
}

/** Gives the contact these tags by title; a title the organisation has not used joins its catalogue. */
export async function attachTags(tx: Db, contact: Pick<Contact, 'id' | 'org_id'>, titles: string[], at: string): Promise<boolean> {
  const wanted = new Map(titles.map((t) => [t.toLowerCase(), t]));
  if (!wanted.size) return false;
  await tx
    .insertInto('tags')
    .values([...wanted].map(([lc, title]) => ({ org_id: contact.org_id, title, title_lc: lc, created_at: at })))
    .onConflict((oc) => oc.columns(['org_id', 'title_lc']).doNothing())
    .execute();
  const tags = await tx
    .selectFrom('tags')
    .select('id')
    .where('org_id', '=', contact.org_id)
    .where('title_lc', 'in', [...wanted.keys()])
    .execute();
  const [result] = await tx
    .insertInto('contact_tags')
    .values(tags.map((t) => ({ contact_id: contact.id, tag_id: t.id })))
    .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
    .execute();
  return Number(result?.numInsertedOrUpdatedRows ?? 0) > 0;
}

type CustomFieldInput = NonNullable<ContactInput['custom_fields']>[number];

/**
 * Custom fields are named by display name; a name the organisation has not used yet creates the field with
 * the given type. Values are checked against the field's type; every bad value is reported at once.
 */
async function writeCustomFields(
  tx: Db,
  contact: Pick<Contact, 'id' | 'org_id'>,
  values: CustomFieldInput[],
  at: string,
): Promise<boolean> {
  const problems: FieldProblem[] = [];
  let changed = false;
  for (const [i, input] of values.entries()) {
    const field = await findOrCreateField(tx, contact.org_id, input, at);
    const checked = await normaliseValue(tx, field, input.value);
    if ('error' in checked) {
      problems.push({
        kind: 'invalid',
        field: `custom_fields.${i}.value`,
        reason: `custom_fields.${i}.value (${input.name}) ${checked.error}.`,
      });
      continue;
    }
    changed = (await setCustomValue(tx, contact.id, field.id, checked.value)) || changed;
  }
  if (problems.length) throw invalidFields(problems);
  return changed;
}

/** Sets (or with null removes) one custom value; answers whether it changed. */
export async function setCustomValue(tx: Db, contactId: number, fieldId: number, value: string | null): Promise<boolean> {
  const current = await tx
    .selectFrom('contact_custom_values')
    .select('value')
    .where('contact_id', '=', contactId)
    .where('custom_field_id', '=', fieldId)
    .executeTakeFirst();
  if ((current?.value ?? null) === value) return false;
  if (value === null) {
    await tx.deleteFrom('contact_custom_values').where('contact_id', '=', contactId).where('custom_field_id', '=', fieldId).execute();
  } else {
    await tx
      .insertInto('contact_custom_values')
      .values({ contact_id: contactId, custom_field_id: fieldId, value })
      .onConflict((oc) => oc.columns(['contact_id', 'custom_field_id']).doUpdateSet({ value }))
      .execute();
  }
  return true;
}

async function findOrCreateField(tx: Db, orgId: number, input: CustomFieldInput, at: string) {
  const nameLc = input.name.toLowerCase();
  const existing = await tx
    .selectFrom('custom_fields')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('name_lc', '=', nameLc)
    .executeTakeFirst();
  if (existing) return existing;
  const last = await tx
    .selectFrom('custom_fields')
    .select((eb) => eb.fn.max('display_order').as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return tx
    .insertInto('custom_fields')
    .values({
      org_id: orgId,
      display_name: input.name,
      name_lc: nameLc,
      type_id: input.type,
      display_order: Number(last?.n ?? 0) + 1,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

type Checked = { value: string | null } | { error: string };

/** A drop-down's option by label (without case) or by id. */
async function findOption(db: Db, fieldId: number, given: string) {
  const options = await db.selectFrom('custom_field_options').selectAll().where('custom_field_id', '=', fieldId).orderBy('id').execute();
  return options.find((o) => o.label.toLowerCase() === given.toLowerCase()) ?? options.find((o) => String(o.id) === given);
}

const insertOption = (tx: Db, fieldId: number, label: string) =>
  tx.insertInto('custom_field_options').values({ custom_field_id: fieldId, label }).returningAll().executeTakeFirstOrThrow();

/**
 * A value as its field's type writes it. A drop-down takes one of its options by label (without case) or id; a label
 * it does not have yet becomes a new option (so a value is never refused by a drop-down).
 */
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
    case 6:
      return { value: ((await findOption(tx, field.id, raw)) ?? (await insertOption(tx, field.id, raw.slice(0, 255)))).label };
    case 7:
      return /^-?\d+(\.\d+)?$/.test(raw) ? { value: raw } : { error: 'must be a number' };
    default:
      return raw.length <= 5000 ? { value: raw } : { error: 'must be at most 5000 characters' };
  }
}

/* New contacts in a batch (an import's chunk): the same rows as `writeDetails` and `addNote` write for each of them, a
 * multi-row statement per table (per set of columns given). */

type NewDetails = { contact: Pick<Contact, 'id' | 'org_id'>; body: ContactInput };

async function insertMany<T extends object>(rows: T[], insert: (rows: T[]) => Promise<unknown>): Promise<void> {
  for (const group of byColumns(rows)) await insert(group);
}

/** What `writeDetails` writes for each of these new contacts (all of one organisation), table by table. */
export async function writeNewDetails(tx: Db, items: NewDetails[], at: string): Promise<void> {
  const phones: NewPhone[] = [];
  const emails: NewEmail[] = [];
  const addresses: Record<string, unknown>[] = [];
  const morePhones: NewPhone[] = [];
  for (const { contact, body } of items) {
    const digits = body.phone === undefined ? undefined : phoneDigits(body.phone);
    if (digits)
      phones.push({
        contact_id: contact.id,
        phone_number: digits,
        type: body.phone_type ?? 1,
        label: body.phone_label ?? '',
        is_primary: 1,
      });
    if (body.email) emails.push({ contact_id: contact.id, email_address: body.email, email_lc: body.email.toLowerCase(), is_primary: 1 });
    const given = addressOf(body);
    if (Object.keys(given).length) addresses.push({ contact_id: contact.id, ...given, type: 'home', is_primary: 1 });
    const existing = new Set(digits ? [digits] : []);
    for (const p of body.additional_phone ?? []) {
      const number = phoneDigits(p.number);
      if (existing.has(number)) continue;
      existing.add(number);
      morePhones.push({ contact_id: contact.id, phone_number: number, type: p.phone_type, label: p.phone_label, is_primary: 0 });
    }
  }
  // Each contact's primary phone before its other phones, as `writeDetails` writes them.
  await insertMany([...phones, ...morePhones], (rows) => tx.insertInto('contact_phones').values(rows).execute());
  await insertMany(emails, (rows) => tx.insertInto('contact_emails').values(rows).execute());
  await insertMany(addresses, (rows) =>
    tx
      .insertInto('contact_addresses')
      .values(rows as never[])
      .execute(),
  );
  const names = items.flatMap(({ contact, body }) => (body.additional_name ?? []).map((n) => ({ contact_id: contact.id, ...n })));
  await insertMany(names, (rows) => tx.insertInto('contact_names').values(rows).execute());
  const answers = items.flatMap(({ contact, body }) =>
    body.question?.length && body.answer?.length
      ? body.question.map((question, i) => ({ contact_id: contact.id, question, answer: body.answer![i] ?? '' }))
      : [],
  );
  await insertMany(answers, (rows) => tx.insertInto('contact_answers').values(rows).execute());
  const social = items.flatMap(({ contact, body }) => (body.social_accounts ?? []).map((s) => ({ contact_id: contact.id, ...s })));
  await insertMany(social, (rows) => tx.insertInto('contact_social_accounts').values(rows).execute());
  await attachNewTags(tx, items, at);
  await writeNewCustomValues(tx, items, at);
}

/**
 * The contacts' tags by title: the titles the organisation has not used join its catalogue once, in the order the
 * contacts name them, each as the first contact to name it writes it (as `attachTags` for each contact in turn).
 */
async function attachNewTags(tx: Db, items: NewDetails[], at: string): Promise<void> {
  const titles = new Map<string, string>();
  const wanted = items.map(({ body }) => {
    const own = new Map((body.tags ?? []).map((t) => [t.toLowerCase(), t]));
    for (const [lc, title] of own) if (!titles.has(lc)) titles.set(lc, title);
    return [...own.keys()];
  });
  if (!titles.size) return;
  const orgId = items[0]!.contact.org_id;
  const lcs = [...titles.keys()];
  const ids = new Map<string, number>();
  for (let i = 0; i < lcs.length; i += ROWS_PER_STATEMENT) {
    const part = lcs.slice(i, i + ROWS_PER_STATEMENT);
    await tx
      .insertInto('tags')
      .values(part.map((lc) => ({ org_id: orgId, title: titles.get(lc)!, title_lc: lc, created_at: at })))
      .onConflict((oc) => oc.columns(['org_id', 'title_lc']).doNothing())
      .execute();
    const found = await tx
      .selectFrom('tags')
      .select(['id', 'title_lc'])
      .where('org_id', '=', orgId)
      .where('title_lc', 'in', part)
      .execute();
    for (const t of found) ids.set(t.title_lc, t.id);
  }
  const rows = items.flatMap(({ contact }, i) =>
    wanted[i]!.flatMap((lc) => (ids.has(lc) ? [{ contact_id: contact.id, tag_id: ids.get(lc)! }] : [])),
  );
  await insertMany(rows, (part) =>
    tx
      .insertInto('contact_tags')
      .values(part)
      .onConflict((oc) => oc.columns(['contact_id', 'tag_id']).doNothing())
      .execute(),
  );
}

/**
 * The contacts' custom values, each field found (or created) by name and each value checked once per chunk; a bad
 * value refuses the batch as `writeCustomFields` refuses the contact it is in.
 */
async function writeNewCustomValues(tx: Db, items: NewDetails[], at: string): Promise<void> {
  const fields = new Map<string, Awaited<ReturnType<typeof findOrCreateField>>>();
  const checked = new Map<string, Checked>();
  const rows: { contact_id: number; custom_field_id: number; value: string }[] = [];
  for (const { contact, body } of items) {
    const problems: FieldProblem[] = [];
    const values = new Map<number, string | null>();
    for (const [i, input] of (body.custom_fields ?? []).entries()) {
      const nameLc = input.name.toLowerCase();
      const field = fields.get(nameLc) ?? (await findOrCreateField(tx, contact.org_id, input, at));
      fields.set(nameLc, field);
      const key = `${field.id}:${input.value}`;
      const result = checked.get(key) ?? (await normaliseValue(tx, field, input.value));
      checked.set(key, result);
      if ('error' in result) {
        problems.push({
          kind: 'invalid',
          field: `custom_fields.${i}.value`,
          reason: `custom_fields.${i}.value (${input.name}) ${result.error}.`,
        });
        continue;
      }
      values.set(field.id, result.value);
    }
    if (problems.length) throw invalidFields(problems);
    for (const [fieldId, value] of values) if (value !== null) rows.push({ contact_id: contact.id, custom_field_id: fieldId, value });
  }
  await insertMany(rows, (part) => tx.insertInto('contact_custom_values').values(part).execute());
}

/** The contacts' notes (`addNote` for each), one statement. */
export async function addNotes(
  tx: Db,
  notes: { contactId: number; body: string | undefined }[],
  actorId: number,
  at: string,
): Promise<void> {
  const rows = notes.flatMap((n) => (n.body ? [{ contact_id: n.contactId, author_id: actorId, body: n.body, created_at: at }] : []));
  await insertMany(rows, (part) => tx.insertInto('contact_notes').values(part).execute());
}
