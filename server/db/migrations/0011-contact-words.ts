import { type Kysely, sql } from 'kysely';
import { wordTokens } from '../word-tokens.js';
import { isPostgres } from './dialect.js';

/* Migrations take Kysely<any>: they describe the schema as it was at their time, not as the types say now. */
type Db = Kysely<any>;

/**
 * The word index (server/modules/contacts/contact-words.ts): one FTS5 row per contact that is neither trashed nor
 * archived, its words and their suffixes behind the owner's mark; rowid = contact id, no copy of the text, deletable
 * by rowid, no positions (a search is words in any order). Filled from the contacts already stored, a chunk at a time.
 * Its tokens are made by the same function as the rows written later: a change to that function is a new migration
 * that fills the table again. SQLite's, as the trigram index is (docs/store.md).
 */
const CHUNK = 5_000;

export async function up(db: Db): Promise<void> {
  // PostgreSQL's trigram index (0009) answers every search: the word index is SQLite's alone.
  if (isPostgres(db)) return;
  await sql`create virtual table contact_words using fts5(words, tokenize = 'ascii', detail = none, content = '', contentless_delete = 1)`.execute(
    db,
  );
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; owner_id: number; names: string; emails: string | null; phones: string | null }>`
      select c.id, c.owner_id, trim(c.first_name || ' ' || c.last_name) as names,
        (select group_concat(e.email_lc, ' ') from contact_emails e where e.contact_id = c.id) as emails,
        (select group_concat(p.phone_number, ' ') from contact_phones p where p.contact_id = c.id) as phones
      from contacts c where c.id > ${after} and c.trashed = 0 and c.archived = 0 order by c.id limit ${CHUNK}`.execute(db);
    if (!rows.length) break;
    const values = rows.map((r) => ({
      rowid: r.id,
      words: wordTokens(r.owner_id, r.names, r.emails?.split(' ') ?? [], r.phones?.split(' ') ?? []),
    }));
    await db.insertInto('contact_words').values(values).execute();
    after = rows[rows.length - 1]!.id;
  }
}
