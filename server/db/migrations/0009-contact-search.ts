import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Search that finds any part of a name, an e-mail address or a phone number: an FTS5 index with the trigram
 * tokenizer, one row per contact (rowid = contact id), holding no copy of the text (contentless) and deletable by
 * rowid. contact_search_terms stays for queries of one or two characters, which trigrams cannot match.
 * On PostgreSQL the same role falls to pg_trgm: a table of the same three texts per contact, each with a trigram GIN
 * index, which `like '%…%'` uses (docs/store.md).
 */
export async function up(db: Db): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);
  await sql`create virtual table contact_search using fts5(names, emails, phones, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(
    db,
  );
  await sql`
    insert into contact_search (rowid, names, emails, phones)
    select c.id, trim(c.first_name || ' ' || c.last_name),
      coalesce((select group_concat(e.email_lc, ' ') from contact_emails e where e.contact_id = c.id), ''),
      coalesce((select group_concat(p.phone_number, ' ') from contact_phones p where p.contact_id = c.id), '')
    from contacts c`.execute(db);
}

async function upPostgres(db: Db): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await db.schema
    .createTable('contact_search')
    .addColumn('contact_id', 'integer', (c) => c.primaryKey().references('contacts.id').onDelete('cascade'))
    .addColumn('names', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phones', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  for (const column of ['names', 'emails', 'phones']) {
    await sql`create index ${sql.id(`contact_search_${column}`)} on contact_search using gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
  await sql`
    insert into contact_search (contact_id, names, emails, phones)
    select c.id, lower(trim(c.first_name || ' ' || c.last_name)),
      coalesce((select string_agg(e.email_lc, ' ') from contact_emails e where e.contact_id = c.id), ''),
      coalesce((select string_agg(p.phone_number, ' ') from contact_phones p where p.contact_id = c.id), '')
    from contacts c`.execute(db);
}
