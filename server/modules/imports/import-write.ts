import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { AuthContext } from '../../auth/access.js';
import type { CreateContactBody } from '../../contracts/contacts.js';
import type { Db } from '../../db/database.js';
import type { Contact } from '../../db/schema.js';
import { deletePoints, emailsOf, insertEmail, insertEmails, phonesOf, setPrimary } from '../contact-details/contact-points.repository.js';
import { setCustomValue } from '../contacts/contact-details.repository.js';
import { ActivityType, recordChange } from '../contacts/contact-history.repository.js';
import type { ContactInput } from '../contacts/contact-input.js';
import { deleteContactRows, removeTagFromContacts, updateContactRow } from '../contacts/contact-rows.repository.js';
import { findContactRow } from '../contacts/contacts.repository.js';
import { applyUpdate, createContactIn, createContactsBatch } from '../contacts/contacts.service.js';
import type { Draft } from './import-row.js';
import { deleteAddress, deleteNote, detailsOf, tagsByTitle } from './imports.repository.js';

/*
 * An import's writes, each through the contacts module's own code (so counts, versions, search terms, activities and
 * audit records are kept exactly as a contact created or updated by hand): a new contact, an update that only adds and
 * fills (never replaces: a differing value is left and said), and the undo of either.
 */

const ADDRESS_FIELDS = ['address1', 'city', 'state', 'zip', 'country'] as const;

export function createBody(draft: Draft): CreateContactBody {
  const [phone, ...morePhones] = draft.phones;
  return {
    first_name: draft.first_name || undefined,
    last_name: draft.last_name || undefined,
    email: draft.emails[0],
    phone: phone?.digits,
    phone_type: phone?.type,
    additional_phone: morePhones.map((p) => ({ number: p.digits, phone_type: p.type, phone_label: '' })),
    ...draft.address,
    category_id: draft.folderId ?? undefined,
    tags: draft.tags,
    notes: draft.notes.join('\n\n') || undefined,
    do_not_call: draft.do_not_call,
    custom_fields: draft.custom.map((c) => ({ name: c.field.display_name, type: c.field.type_id as 1, value: c.value })),
    duplicate_checks: { email: false, phone: false },
    on_duplicate: 'skip',
    duplicate_scrubbing_policy: 0,
    allow_duplicates: true,
  };
}

/** A new contact from a row; the duplicate check was made for the whole chunk (import-job.ts). */
export async function createFromDraft(tx: Db, auth: AuthContext, draft: Draft): Promise<number> {
  const created = await createContactIn(tx, auth, createBody(draft));
  // E-mails beyond the first: the create body has one; the rest are added as a contact's e-mails are.
  for (const email of draft.emails.slice(1)) await insertEmail(tx, created.id, email);
  return created.id;
}

/** New contacts from rows, in one batch (`createContactsBatch`), then their e-mails beyond the first: their ids in order. */
export async function createFromDrafts(tx: Db, auth: AuthContext, drafts: Draft[]): Promise<number[]> {
  const created = await createContactsBatch(tx, auth, drafts.map(createBody));
  await insertEmails(
    tx,
    drafts.flatMap((d, i) => d.emails.slice(1).map((address) => ({ contactId: created[i]!.id, address }))),
  );
  return created.map((c) => c.id);
}

/** What an update of an existing contact adds or fills, what it found different (left as it is), and how to undo it. */
export type UpdatePlan = {
  body: ContactInput;
  extraEmails: string[];
  differences: string[];
  undo: UndoChanges;
};

export type UndoChanges = {
  at?: string;
  fields: Record<string, { before: string | number | null; after: string | number | null }>;
  emails: string[];
  phones: string[];
  tags: string[];
  custom: { id: number; value: string }[];
  address?: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>;
  note?: string;
  not_restored?: { field: string; reason: string }[];
};

const fill = (plan: UpdatePlan, label: string, column: 'first_name' | 'last_name', current: string, wanted: string) => {
  if (!wanted || current === wanted) return;
  if (current) {
    plan.differences.push(`${label} "${current}" kept (the file has "${wanted}")`);
    return;
  }
  plan.body[column] = wanted;
  plan.undo.fields[column] = { before: current, after: wanted };
};

/** Reads the contact as it is and plans the row's additions to it; a plan with nothing in it changes nothing. */
export async function planUpdate(db: Db, contact: Contact, draft: Draft): Promise<UpdatePlan> {
  const plan: UpdatePlan = {
    body: {},
    extraEmails: [],
    differences: [],
    undo: { fields: {}, emails: [], phones: [], tags: [], custom: [] },
  };
  fill(plan, 'First name', 'first_name', contact.first_name, draft.first_name);
  fill(plan, 'Last name', 'last_name', contact.last_name, draft.last_name);
  const [emails, phones, details] = await Promise.all([emailsOf(db, contact.id), phonesOf(db, contact.id), detailsOf(db, contact.id)]);
  const haveEmails = new Set(emails.map((e) => e.email_lc));
  const newEmails = draft.emails.filter((e) => !haveEmails.has(e.toLowerCase()));
  if (newEmails.length && !emails.length) plan.body.email = newEmails.shift();
  plan.extraEmails = newEmails;
  plan.undo.emails = [...(plan.body.email ? [plan.body.email] : []), ...newEmails].map((e) => e.toLowerCase());
  const havePhones = new Set(phones.map((p) => p.phone_number));
  const newPhones = draft.phones.filter((p) => !havePhones.has(p.digits));
  if (newPhones.length && !phones.length) {
    const first = newPhones.shift()!;
    Object.assign(plan.body, { phone: first.digits, phone_type: first.type });
    plan.undo.phones.push(first.digits);
  }
  if (newPhones.length) plan.body.additional_phone = newPhones.map((p) => ({ number: p.digits, phone_type: p.type, phone_label: '' }));
  plan.undo.phones.push(...newPhones.map((p) => p.digits));
  if (draft.folderId && contact.folder_id === null) {
    plan.body.category_id = draft.folderId;
    plan.undo.fields.folder_id = { before: null, after: draft.folderId };
  } else if (draft.folderId && contact.folder_id !== draft.folderId) plan.differences.push('folder kept (the file names another)');
  if (draft.do_not_call && !contact.do_not_call) {
    plan.body.do_not_call = true;
    plan.undo.fields.do_not_call = { before: 0, after: 1 };
  }
  planAddress(plan, details.address as Record<string, unknown> | undefined, draft);
  const haveTags = new Set(details.tags.map((t) => t.title_lc));
  const newTags = draft.tags.filter((t) => !haveTags.has(t.toLowerCase()));
  if (newTags.length) plan.body.tags = plan.undo.tags = newTags;
  planCustom(plan, new Map(details.custom.map((c) => [c.custom_field_id, c.value])), draft);
  if (draft.notes.length) plan.body.notes = plan.undo.note = draft.notes.join('\n\n');
  return plan;
}

function planAddress(plan: UpdatePlan, address: Record<string, unknown> | undefined, draft: Draft) {
  if (!Object.keys(draft.address).length) return;
  if (!address) {
    Object.assign(plan.body, draft.address);
    plan.undo.address = draft.address;
    return;
  }
  const stored = { address1: address.address, city: address.city, state: address.state, zip: address.zip, country: address.country };
  if (ADDRESS_FIELDS.some((k) => draft.address[k] && draft.address[k] !== stored[k]))
    plan.differences.push('address kept (the file has another)');
}

function planCustom(plan: UpdatePlan, current: Map<number, string | null>, draft: Draft) {
  const fields = [];
  for (const { field, value } of draft.custom) {
    const now = current.get(field.id);
    if (now === value) continue;
    if (now) {
      plan.differences.push(`${field.display_name} "${now}" kept (the file has "${value}")`);
      continue;
    }
    fields.push({ name: field.display_name, type: field.type_id as 1, value });
    plan.undo.custom.push({ id: field.id, value });
  }
  if (fields.length) plan.body.custom_fields = fields;
}

export const planChanges = (plan: UpdatePlan) => Object.keys(plan.body).length > 0 || plan.extraEmails.length > 0;

/** Applies a plan through the contacts module's update (one activity and audit as a hand update), then the extra e-mails. */
export async function applyPlan(tx: Db, auth: AuthContext, contact: Contact, plan: UpdatePlan, at: string): Promise<void> {
  plan.undo.at = at;
  const updated = Object.keys(plan.body).length ? await applyUpdate(tx, auth, contact, plan.body, at) : contact;
  if (!plan.extraEmails.length) return;
  for (const email of plan.extraEmails) await insertEmail(tx, contact.id, email);
  await updateContactRow(tx, updated, { changes: {}, at, searchAdded: true });
  await recordChange(tx, {
    contactIds: [contact.id],
    memberId: auth.member.id,
    at,
    activity: ActivityType.emailsChanged,
    text: 'E-mail added',
    audit: [],
  });
}

/** A value an undo leaves, said as the import's mapping names its field, in words (no ids or stored codes). */
function changedSince(column: string, now: unknown): NotRestored {
  if (column === 'folder_id') return { field: 'folder', reason: 'moved to another folder since' };
  if (column === 'do_not_call') return { field: 'do_not_call', reason: 'changed since' };
  return { field: column, reason: `changed since to "${typeof now === 'string' || typeof now === 'number' ? now : ''}"` };
}

const spokenNumber = (digits: string) => parsePhoneNumberFromString(digits, 'US')?.formatNational() ?? digits;

export type NotRestored = { field: string; reason: string };

/**
 * Undoes a created contact: deleted, recorded as a hand deletion is; unless it was edited after the import ended
 * (`importEnded`), when it is kept and said so. Answers what was left, if anything.
 */
export async function undoCreated(
  tx: Db,
  auth: AuthContext,
  contactId: number,
  importEnded: string | null,
  at: string,
): Promise<NotRestored | null> {
  const contact = await findContactRow(tx, contactId);
  if (!contact) return null;
  if (importEnded && contact.updated_at > importEnded)
    return { field: 'contact', reason: 'The contact was edited since the import, so it was kept.' };
  await recordChange(tx, {
    contactIds: [contactId],
    memberId: auth.member.id,
    at,
    activity: ActivityType.deleted,
    text: 'Contact deleted: its import was undone',
    audit: [{ action: 'delete', dataType: 'contact' }],
  });
  await deleteContactRows(tx, [contact]);
  return null;
}

/**
 * Takes back what an update added or filled, each value only while it is still what the import wrote; the rest is
 * answered as not restored, in words.
 */
export async function undoUpdated(tx: Db, auth: AuthContext, contactId: number, undo: UndoChanges, at: string) {
  const notRestored: { field: string; reason: string }[] = [];
  const contact = await findContactRow(tx, contactId);
  if (!contact) return [{ field: 'contact', reason: 'The contact was deleted since.' }];
  const changes: Record<string, unknown> = {};
  for (const [column, { before, after }] of Object.entries(undo.fields)) {
    const now = contact[column as keyof Contact];
    if (now === after) changes[column] = before;
    else notRestored.push(changedSince(column, now));
  }
  let touched = false;
  touched = (await undoPoints(tx, contactId, undo, notRestored)) || touched;
  const details = await detailsOf(tx, contactId);
  touched = (await undoCustom(tx, contactId, undo, details.custom, notRestored)) || touched;
  if (undo.address && details.address) {
    const a = details.address;
    const same = Object.entries(undo.address).every(([k, v]) => (k === 'address1' ? a.address : a[k as keyof typeof a]) === v);
    if (same) {
      await deleteAddress(tx, a.id);
      touched = true;
    } else notRestored.push({ field: 'address', reason: 'changed since' });
  }
  if (undo.note && undo.at) {
    const gone = await deleteNote(tx, contactId, undo.note, undo.at);
    if (Number(gone.numDeletedRows)) touched = true;
    else notRestored.push({ field: 'notes', reason: 'changed or deleted since' });
  }
  if (Object.keys(changes).length || touched) {
    await updateContactRow(tx, contact, { changes, at, searchChanged: touched });
    await recordChange(tx, {
      contactIds: [contactId],
      memberId: auth.member.id,
      at,
      activity: ActivityType.updated,
      text: 'Contact updated: its import was undone',
      audit: [],
    });
  }
  await undoTags(tx, auth, contact, undo, at);
  return notRestored;
}

async function undoPoints(tx: Db, contactId: number, undo: UndoChanges, notRestored: { field: string; reason: string }[]) {
  const emails = await emailsOf(tx, contactId);
  const phones = await phonesOf(tx, contactId);
  const goneEmails = emails.filter((e) => undo.emails.includes(e.email_lc));
  const gonePhones = phones.filter((p) => undo.phones.includes(p.phone_number));
  for (const e of undo.emails)
    if (!goneEmails.some((g) => g.email_lc === e)) notRestored.push({ field: 'email', reason: `${e} changed or removed since` });
  for (const p of undo.phones)
    if (!gonePhones.some((g) => g.phone_number === p))
      notRestored.push({ field: 'phone', reason: `${spokenNumber(p)} changed or removed since` });
  await deletePoints(
    tx,
    'contact_emails',
    goneEmails.map((e) => e.id),
  );
  await deletePoints(
    tx,
    'contact_phones',
    gonePhones.map((p) => p.id),
  );
  // A primary that went: the oldest left becomes primary, as removing one by hand does.
  if (goneEmails.some((e) => e.is_primary))
    await setPrimary(tx, 'contact_emails', contactId, emails.find((e) => !goneEmails.includes(e))?.id ?? null);
  if (gonePhones.some((p) => p.is_primary))
    await setPrimary(tx, 'contact_phones', contactId, phones.find((p) => !gonePhones.includes(p))?.id ?? null);
  return goneEmails.length + gonePhones.length > 0;
}

async function undoCustom(
  tx: Db,
  contactId: number,
  undo: UndoChanges,
  current: { custom_field_id: number; value: string | null }[],
  notRestored: { field: string; reason: string }[],
) {
  let touched = false;
  for (const { id, value } of undo.custom) {
    const now = current.find((c) => c.custom_field_id === id)?.value ?? null;
    if (now === value) touched = (await setCustomValue(tx, contactId, id, null)) || touched;
    else notRestored.push({ field: `custom:${id}`, reason: `changed since to "${now ?? ''}"` });
  }
  return touched;
}

async function undoTags(tx: Db, auth: AuthContext, contact: Contact, undo: UndoChanges, at: string) {
  for (const tag of await tagsByTitle(
    tx,
    contact.org_id,
    undo.tags.map((t) => t.toLowerCase()),
  ))
    await removeTagFromContacts(tx, { orgId: contact.org_id, contactIds: [contact.id], actorId: auth.member.id, at, tag });
}
