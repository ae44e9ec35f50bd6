/*
 * A catalog change can reach every contact of an organisation (a tag or a custom field deleted). Such a write runs
 * set-based over a chunk of contacts per statement, in its one transaction, and lets the process answer other
 * requests between chunks: better-sqlite3 answers synchronously, so one statement over 100,000 rows would hold up
 * every request of its process for as long as it ran.
 */

/** Contacts per statement. */
export const CONTACT_CHUNK = 10_000;

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
