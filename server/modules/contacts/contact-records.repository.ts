import type { Compilable } from 'kysely';
import type { Db } from '../../db/database.js';
import { type Placeholder, prepared } from '../../db/prepared.js';
import type { Contact } from '../../db/schema.js';
import { DETAIL_KINDS } from './contact-rows.repository.js';

/** The columns of a contact that its record shows (contacts.serializer.ts), and its version (record-cache.ts). */
const RECORD_COLUMNS = [
  'id',
  'owner_id',
  'folder_id',
  'first_name',
  'last_name',
  'original_ip',
  'unique_id',
  'ad_code',
  'language',
  'region',
  'time_zone',
  'location_name',
  'latitude',
  'longitude',
  'raw_zip',
  'raw_phone',
  'last_login',
  'total_logins',
  'points',
  'do_not_call',
  'call_result',
  'gender',
  'date_of_birth',
  'site_id',
  'archived',
  'trashed',
  'removed',
  'viewed',
  'rating',
  'contacted_at',
  'consent_date',
  'lead_id',
  'total_calls',
  'last_call_time',
  'detail_kinds',
  'version',
  'created_at',
  'updated_at',
] as const;
export type RecordRow = Pick<Contact, (typeof RECORD_COLUMNS)[number]>;

/** A page is its contacts' ids and versions: their records mostly come from the record cache. */
export type PageRow = Pick<Contact, 'id' | 'version'>;

/** One prepared query over the rows of a list of contacts. */
const ofContacts = <Row>(name: string, build: (db: Db, ids: Placeholder<number>[]) => Compilable<Row>) => {
  const query = prepared<null, { ids: number[] }, Row>(name, (db, _shape, p) => build(db, p.ids));
  return (db: Db, ids: number[]) => query(db, null, { ids });
};

const detailQueries = {
  phones: ofContacts('contact phones', (db, ids) =>
    db.selectFrom('contact_phones').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id'),
  ),
  emails: ofContacts('contact emails', (db, ids) =>
    db.selectFrom('contact_emails').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id'),
  ),
  addresses: ofContacts('contact addresses', (db, ids) =>
    db.selectFrom('contact_addresses').selectAll().where('contact_id', 'in', ids).orderBy('is_primary', 'desc').orderBy('id'),
  ),
  tags: ofContacts('contact tags', (db, ids) =>
    db
      .selectFrom('contact_tags')
      .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
      .select(['contact_tags.contact_id', 'tags.id', 'tags.title'])
      .where('contact_tags.contact_id', 'in', ids)
      .orderBy('tags.title'),
  ),
  customValues: ofContacts('contact custom values', (db, ids) =>
    db
      .selectFrom('contact_custom_values')
      .innerJoin('custom_fields', 'custom_fields.id', 'contact_custom_values.custom_field_id')
      .select([
        'contact_custom_values.contact_id',
        'custom_fields.id',
        'custom_fields.display_name',
        'custom_fields.type_id',
        'contact_custom_values.value',
      ])
      .where('contact_custom_values.contact_id', 'in', ids)
      .orderBy('custom_fields.display_order')
      .orderBy('custom_fields.id'),
  ),
  notes: ofContacts('contact notes', (db, ids) =>
    db
      .selectFrom('contact_notes')
      .leftJoin('members', 'members.id', 'contact_notes.author_id')
      .select([
        'contact_notes.contact_id',
        'contact_notes.body',
        'contact_notes.created_at',
        'members.first_name',
        'members.last_name',
        'members.username',
      ])
      .where('contact_notes.contact_id', 'in', ids)
      .orderBy('contact_notes.id', 'desc'),
  ),
  names: ofContacts('contact names', (db, ids) => db.selectFrom('contact_names').selectAll().where('contact_id', 'in', ids).orderBy('id')),
  answers: ofContacts('contact answers', (db, ids) =>
    db.selectFrom('contact_answers').selectAll().where('contact_id', 'in', ids).orderBy('id'),
  ),
  social: ofContacts('contact social accounts', (db, ids) =>
    db.selectFrom('contact_social_accounts').selectAll().where('contact_id', 'in', ids).orderBy('id'),
  ),
  crm: ofContacts('contact crm links', (db, ids) =>
    db.selectFrom('contact_crm_links').selectAll().where('contact_id', 'in', ids).orderBy('id'),
  ),
  folders: ofContacts('contact folders', (db, ids) => db.selectFrom('folders').selectAll().where('id', 'in', ids)),
};

/** The rows of these contacts that their records are built from, in no particular order; deleted ones are left out. */
export const recordRows = ofContacts<RecordRow>('contact record rows', (db, ids) =>
  db.selectFrom('contacts').select(RECORD_COLUMNS).where('id', 'in', ids),
);

/**
 * Everything a contact record shows beyond its own row, for a non-empty list of contacts at once: one query
 * per table, never one per contact, and none to a sparse table where no contact has its detail_kinds bit.
 */
export async function loadDetails(db: Db, contacts: Pick<Contact, 'id' | 'folder_id' | 'detail_kinds'>[]) {
  const ids = contacts.map((c) => c.id);
  const folderIds = [...new Set(contacts.map((c) => c.folder_id).filter((id): id is number => id !== null))];
  const kinds = contacts.reduce((all, c) => all | c.detail_kinds, 0);
  const q = detailQueries;
  const sparse = <Row>(kind: keyof typeof DETAIL_KINDS, load: (db: Db, ids: number[]) => Promise<Row[]>): Promise<Row[]> =>
    kinds & DETAIL_KINDS[kind] ? load(db, ids) : Promise.resolve([]);
  const [phones, emails, addresses, tags, customValues, notes, names, answers, social, crm, folders] = await Promise.all([
    q.phones(db, ids),
    q.emails(db, ids),
    sparse('addresses', q.addresses),
    sparse('tags', q.tags),
    sparse('customValues', q.customValues),
    sparse('notes', q.notes),
    sparse('names', q.names),
    sparse('answers', q.answers),
    sparse('social', q.social),
    sparse('crm', q.crm),
    folderIds.length ? q.folders(db, folderIds) : Promise.resolve([]),
  ]);
  return { phones, emails, addresses, tags, customValues, notes, names, answers, social, crm, folders };
}

export type ContactDetails = Awaited<ReturnType<typeof loadDetails>>;
