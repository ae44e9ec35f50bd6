import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * PostgreSQL's search rows carry their contact's owner, and the three trigram indexes become one GIN index over the
 * owner and the three texts (btree_gin indexes the integer): a rep's or a team's search intersects its owners' entries
 * with the words' trigrams inside the index, instead of reading every organisation's matches of a common name and
 * checking each contact's owner (at 100,000 contacts a last name's count read all 859 matches, or the whole table,
 * for the 85 that were the rep's). Writes that change an owner rewrite it here ('words' reindex). SQLite's word
 * index already carries the owner: nothing changes there.
 */
export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`alter table contact_search add column owner_id integer not null default 0`.execute(db);
  await sql`update contact_search s set owner_id = c.owner_id from contacts c where c.id = s.contact_id`.execute(db);
  for (const column of ['names', 'emails', 'phones']) await sql`drop index ${sql.id(`contact_search_${column}`)}`.execute(db);
  await sql`create index contact_search_trigrams on contact_search
    using gin (owner_id, names gin_trgm_ops, emails gin_trgm_ops, phones gin_trgm_ops)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index contact_search_trigrams`.execute(db);
  for (const column of ['names', 'emails', 'phones']) {
    await sql`create index ${sql.id(`contact_search_${column}`)} on contact_search using gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
  await sql`alter table contact_search drop column owner_id`.execute(db);
}
