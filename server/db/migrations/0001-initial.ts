import type { Kysely, CreateTableBuilder } from 'kysely';
import { tableWithId } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

const text = (t: CreateTableBuilder<any, any>, name: string) => t.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));
const flag = (t: CreateTableBuilder<any, any>, name: string) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));

const table = tableWithId;

export async function up(db: Db): Promise<void> {
  await table(db, 'organisations')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  let members = table(db, 'members')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('parent_id', 'integer', (c) => c.references('members.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('phone', 'text');
  for (const name of ['first_name', 'last_name', 'email', 'billing_item_id', 'billing_group_id', 'subgroup_id', 'subscription_status']) {
    members = text(members, name);
  }
  await flag(members, 'token_generation')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('members_username').unique().on('members').column('username').execute();
  await db.schema.createIndex('members_org').on('members').columns(['org_id', 'parent_id']).execute();
  await db.schema.createIndex('members_parent').on('members').column('parent_id').execute();

  await table(db, 'access_tokens')
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_member').on('access_tokens').column('member_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_member').on('sessions').column('member_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('blocked_until', 'text')
    .execute();

  await table(db, 'folders')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('parent_id', 'integer', (c) => c.references('folders.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_org').on('folders').columns(['org_id', 'parent_id']).execute();

  await createContacts(db);
  await createContactChildren(db);
  await createCatalogues(db);
  await createHistory(db);
}

async function createContacts(db: Db) {
  let t = table(db, 'contacts')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('members.id'))
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id'))
    .addColumn('source_id', 'integer');
  for (const name of [
    'first_name',
    'last_name',
    'email',
    'phone',
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
    'gender',
    'site_id',
    'lead_id',
    'token',
    'return_lead_token',
    'order_number',
    'lead_vendor_product_name',
  ]) {
    t = text(t, name);
  }
  for (const name of ['total_logins', 'points', 'do_not_call', 'archived', 'trashed', 'removed', 'viewed', 'rating', 'total_calls']) {
    t = flag(t, name);
  }
  for (const name of ['last_login', 'call_result', 'date_of_birth', 'contacted_at', 'consent_date', 'last_call_time', 'trashed_at']) {
    t = t.addColumn(name, 'text');
  }
  await t
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  /*
   * Listing is scoped by organisation (a vendor) or by owners (a member, a manager's team), active contacts by
   * default, newest (highest id) first, optionally in one folder. These indexes answer the page and its count
   * from the index alone.
   */
  const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('contacts').columns(columns).execute();
  await index('contacts_owner_list', ['org_id', 'owner_id', 'trashed', 'archived', 'id']);
  await index('contacts_owner_folder_list', ['org_id', 'owner_id', 'folder_id', 'trashed', 'archived', 'id']);
  await index('contacts_org_list', ['org_id', 'trashed', 'archived', 'id']);
  await index('contacts_org_folder_list', ['org_id', 'folder_id', 'trashed', 'archived', 'id']);
  // Integrations poll by modification time; the web app sorts by these columns.
  await index('contacts_owner_updated', ['owner_id', 'updated_at']);
  await index('contacts_org_updated', ['org_id', 'updated_at']);
  await index('contacts_org_created', ['org_id', 'created_at']);
  for (const column of ['last_name', 'first_name', 'email', 'rating']) await index(`contacts_org_${column}`, ['org_id', column, 'id']);
}

async function createContactChildren(db: Db) {
  const child = (name: string) =>
    table(db, name).addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'));

  await flag(
    text(
      text(
        child('contact_phones').addColumn('type', 'integer', (c) => c.notNull().defaultTo(1)),
        'phone_number',
      ),
      'label',
    ),
    'is_primary',
  ).execute();
  await db.schema.createIndex('contact_phones_contact').on('contact_phones').column('contact_id').execute();
  await db.schema.createIndex('contact_phones_number').on('contact_phones').columns(['phone_number', 'contact_id']).execute();

  await flag(text(text(text(child('contact_emails'), 'email_address'), 'email_lc'), 'status'), 'is_primary').execute();
  await db.schema.createIndex('contact_emails_contact').on('contact_emails').column('contact_id').execute();
  await db.schema.createIndex('contact_emails_lc').on('contact_emails').columns(['email_lc', 'contact_id']).execute();

  let addresses = child('contact_addresses');
  for (const name of ['address', 'address_2', 'city', 'state', 'state_other', 'zip', 'country', 'type']) addresses = text(addresses, name);
  await flag(addresses, 'is_primary').execute();
  await db.schema.createIndex('contact_addresses_contact').on('contact_addresses').column('contact_id').execute();

  await text(text(child('contact_names'), 'first_name'), 'last_name').execute();
  await text(text(child('contact_answers'), 'question'), 'answer').execute();
  await text(
    child('contact_social_accounts').addColumn('type', 'integer', (c) => c.notNull()),
    'account',
  ).execute();
  await text(text(child('contact_crm_links'), 'crm_id'), 'crm_name').execute();
  for (const name of ['contact_names', 'contact_answers', 'contact_social_accounts', 'contact_crm_links']) {
    await db.schema.createIndex(`${name}_contact`).on(name).column('contact_id').execute();
  }

  await db.schema
    .createTable('contact_search_terms')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('contact_search_terms_pk', ['org_id', 'term', 'contact_id'])
    .execute();
  await db.schema.createIndex('contact_search_terms_contact').on('contact_search_terms').column('contact_id').execute();
}

async function createCatalogues(db: Db) {
  await table(db, 'tags')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_lc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tags_org_title').unique().on('tags').columns(['org_id', 'title_lc']).execute();
  await db.schema
    .createTable('contact_tags')
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('contact_tags_tag').on('contact_tags').columns(['tag_id', 'contact_id']).execute();

  await table(db, 'custom_fields')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('name_lc', 'text', (c) => c.notNull())
    .addColumn('type_id', 'integer', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_fields_org_name').unique().on('custom_fields').columns(['org_id', 'name_lc']).execute();
  await table(db, 'custom_field_options')
    .addColumn('custom_field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_field_options_field').on('custom_field_options').column('custom_field_id').execute();
  await db.schema
    .createTable('contact_custom_values')
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('custom_field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'text')
    .addPrimaryKeyConstraint('contact_custom_values_pk', ['contact_id', 'custom_field_id'])
    .execute();
  await db.schema.createIndex('contact_custom_values_field').on('contact_custom_values').column('custom_field_id').execute();
}

async function createHistory(db: Db) {
  await table(db, 'contact_notes')
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('author_id', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_notes_contact').on('contact_notes').columns(['contact_id', 'id']).execute();

  // Activities and the audit log outlive a permanent delete: they are the record that it happened.
  await table(db, 'contact_activities')
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer')
    .addColumn('activity_type', 'integer', (c) => c.notNull())
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_activities_contact').on('contact_activities').columns(['contact_id', 'created_at']).execute();

  await table(db, 'contact_audit')
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('member_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('data_type', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('new_value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_audit_contact').on('contact_audit').columns(['contact_id', 'id']).execute();
}
