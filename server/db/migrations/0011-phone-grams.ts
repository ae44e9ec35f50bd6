import { type Kysely, sql } from 'kysely';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * Every run of seven digits of every phone number, by organisation: a search of seven digits or more (a number pasted
 * whole, its last seven digits) becomes a key look-up. The trigram index answers it too, but digits have only 1,000
 * trigrams, so at a million contacts each is held by thousands of numbers and such a search read them all.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.createTable('contact_phone_grams')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('gram', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_phone_grams_pk', ['org_id', 'gram', 'contact_id'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await db.schema.createIndex('contact_phone_grams_contact').on('contact_phone_grams').column('contact_id').execute();
  await sql`
    insert or ignore into contact_phone_grams (org_id, gram, contact_id)
    with recursive at(n) as (select 1 union all select n + 1 from at where n < 20)
    select c.org_id, substr(p.phone_number, at.n, 7), c.id
    from contact_phones p join contacts c on c.id = p.contact_id join at on at.n <= length(p.phone_number) - 6`.execute(db);
}
