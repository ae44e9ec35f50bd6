import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/*
 * Inserts whose answer nobody reads (an activity line, an audit record, a new contact's index rows), sent together.
 *
 * On PostgreSQL every statement of a write is a round trip: written to the socket, woken on the server, answered,
 * read back; a create made fourteen of them, and on two cores those wake-ups, not the inserts, were the cost. An
 * insert sent with `insertLater` is held by the transaction's connection (postgres-store.ts) until the transaction's
 * next other statement, and the inserts held by then go ahead of it in its round trip (pipeline.ts), as one statement
 * (or a few: `statementsOf`), each a data-modifying CTE of `with … select 1`, which PostgreSQL runs once and to the end
 * whether or not anything reads it.
 *
 * Every other statement still sees them (they go before it, in order), a savepoint rolled back takes them with it,
 * and the commit carries what is left: nothing is lost, nothing reordered. What changes is when a failure shows:
 * an insert that fails (a constraint) fails the statement it went with, and so the write, never silently.
 *
 * Sibling CTEs read one snapshot and run in no promised order, so two of them writing one row (an upsert's update)
 * would keep one of the writes, and two inserts into one table could take their ids in either order: held statements
 * into one table never share a statement (`statementsOf`). Inserts and upserts whose rows and count nobody reads share
 * statements; other held statements (a delete whose count nobody reads, key locks: `runLater`) go alone, in order.
 * On SQLite, where a statement is a function call, the insert runs at once.
 */

/** What marks a statement's SQL as one to hold (a comment: sent by mistake it would still be the same statement). */
export const LATER = '/* later */ ';

/** Runs `query`, an insert (or upsert) whose rows and count nobody reads, with the transaction's next statement (above). */
export async function insertLater(tx: Kysely<any>, query: Compilable<unknown> | CompiledQuery<unknown>): Promise<void> {
  const compiled = 'compile' in query ? query.compile() : query;
  // Outside a transaction there is no next statement on the same connection to go with: at once.
  if (!isPostgres(tx) || !tx.isTransaction) {
    await tx.executeQuery(compiled);
    return;
  }
  await tx.executeQuery(CompiledQuery.raw(LATER + compiled.sql, [...compiled.parameters]));
}

/**
 * Runs `query`, a statement of another kind whose answer nobody reads (a key lock), the same way: held, and sent in
 * order with the transaction's next statement, alone (only inserts share a statement).
 */
export const runLater = insertLater;

type Held = { text: string; values: readonly unknown[] };
/** A statement that sends held inserts; `parts` the inserts when there were several. */
type Sending = Held & { parts?: Held[] };

/** The table a held insert writes, as Kysely compiles it (undefined for any other text: it goes alone). */
const INSERT_INTO = /^insert into "([^"]+)"/;

/**
 * Held inserts as the statements that send them, in order: as many as follow one another into distinct tables make one
 * statement, each a CTE. PostgreSQL does not promise in what order it runs a statement's CTEs, so two inserts into one
 * table (whose ids, given in the order rows come, order a contact's activities) never share a statement.
 */
export function statementsOf(held: Held[]): Sending[] {
  const statements: Sending[] = [];
  let run: Held[] = [];
  let tables = new Set<string>();
  const close = () => {
    if (run.length) statements.push(run.length === 1 ? run[0]! : together(run));
    run = [];
    tables = new Set();
  };
  for (const h of held) {
    const table = INSERT_INTO.exec(h.text)?.[1];
    if (!table || tables.has(table)) close();
    run.push(h);
    if (table) tables.add(table);
    else close();
  }
  close();
  return statements;
}

/** A `$n` parameter outside quotes (a string's or an identifier's), which the SQL Kysely compiles holds values in. */
const PARAMETER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g;

/** The texts inserts that came together made, by theirs: the same few come together again and again. */
const texts = new Map<string, string>();
const TEXTS_KEPT = 256;

/** Held inserts as one statement, each a CTE, their parameters numbered on from the one before. */
function together(held: Held[]): Sending {
  const key = held.map((h) => h.text).join('\0');
  let text = texts.get(key);
  if (text === undefined) {
    let offset = 0;
    const parts = held.map((h, i) => {
      const at = offset;
      offset += h.values.length;
      return `later_${i} as (${h.text.replace(PARAMETER, (whole, n: string | undefined) => (n === undefined ? whole : `$${Number(n) + at}`))})`;
    });
    text = `with ${parts.join(', ')} select 1`;
    if (texts.size >= TEXTS_KEPT) texts.clear();
    texts.set(key, text);
  }
  return { text, values: held.flatMap((h) => h.values), parts: held };
}
