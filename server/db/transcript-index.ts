import { type Kysely, sql } from 'kysely';
import type { Db } from './schema.js';
import { jsonColumn, rowsOfJson } from './dialect.js';
import { isPostgres } from './migrations/dialect.js';

/*
 * Search by words said: what each transcript heard, in a full-text index (SQLite's FTS5 here, contentless, the
 * transcript's id as rowid, porter stemming so "pricing" finds "price"; on PostgreSQL a tsvector of the English
 * configuration, also stemmed, with a GIN index, and phraseto_tsquery for the words in order). A phrase matches its words in order. What differs between the stores stays in this file.
 */

/** Adds or replaces a transcript's words. */
export async function indexTranscript(tx: Db, transcriptId: number, text: string): Promise<void> {
  if (isPostgres(tx)) {
    await sql`delete from transcript_words where transcript_id = ${transcriptId}`.execute(tx);
    if (text)
      await sql`insert into transcript_words (transcript_id, words) values (${transcriptId}, to_tsvector('english', ${text}))`.execute(tx);
    return;
  }
  await sql`delete from transcript_words where rowid = ${transcriptId}`.execute(tx);
  if (text) await sql`insert into transcript_words (rowid, text) values (${transcriptId}, ${text})`.execute(tx);
}

/** The index's table, on either store: derived from the transcripts' text, rebuilt (`indexTranscriptsAfter`), never copied. */
export const TRANSCRIPT_INDEX_TABLES = ['transcript_words'] as const;

const INDEX_CHUNK = 1_000;

/**
 * Indexes the next INDEX_CHUNK transcripts with text after `afterId`, in id order, with one statement (a store being
 * filled, db/copy-store.ts): answers how many it took and the last id, or null when none is left.
 */
export async function indexTranscriptsAfter(tx: Db, afterId: number): Promise<{ count: number; lastId: number } | null> {
  const rows = await tx
    .selectFrom('transcripts')
    .select(['id', 'text'])
    .where('id', '>', afterId)
    .where('text', '<>', '')
    .orderBy('id')
    .limit(INDEX_CHUNK)
    .execute();
  if (!rows.length) return null;
  const json = JSON.stringify(rows.map((r) => [r.id, r.text]));
  if (isPostgres(tx)) {
    await sql`insert into transcript_words (transcript_id, words)
      select ${jsonColumn(tx, 0, 'integer')}, to_tsvector('english', ${jsonColumn(tx, 1, 'text')}) from ${rowsOfJson(tx, json)}`.execute(
      tx,
    );
  } else {
    await sql`insert into transcript_words (rowid, text) select ${jsonColumn(tx, 0, 'integer')}, ${jsonColumn(tx, 1, 'text')} from ${rowsOfJson(tx, json)}`.execute(
      tx,
    );
  }
  return { count: rows.length, lastId: rows[rows.length - 1]!.id };
}

export async function unindexTranscripts(tx: Db, transcriptIds: number[]): Promise<void> {
  if (isPostgres(tx)) {
    if (transcriptIds.length) await sql`delete from transcript_words where transcript_id = any(${transcriptIds})`.execute(tx);
    return;
  }
  for (const id of transcriptIds) await sql`delete from transcript_words where rowid = ${id}`.execute(tx);
}

/** A phrase as FTS5 takes it: the words alone, quoted together (nothing a person types is read as query syntax). */
export function phraseQuery(phrase: string): string | null {
  const words = phrase.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.length ? `"${words.join(' ').replace(/"/g, '')}"` : null;
}

/** Ids of transcripts holding the phrase, newest first, at most `limit`. */
export async function transcriptsSaying(db: Db, phrase: string, limit: number): Promise<number[]> {
  const query = phraseQuery(phrase);
  if (!query) return [];
  if (isPostgres(db)) {
    const rows = await sql<{ transcript_id: number }>`select transcript_id from transcript_words
      where words @@ phraseto_tsquery('english', ${query.slice(1, -1)}) order by transcript_id desc limit ${limit}`.execute(db);
    return rows.rows.map((r) => Number(r.transcript_id));
  }
  const rows = await sql<{
    rowid: number;
  }>`select rowid from transcript_words where transcript_words match ${query} order by rowid desc limit ${limit}`.execute(db);
  return rows.rows.map((r) => Number(r.rowid));
}

/** The migration's part: the index itself. */
export async function createTranscriptIndex(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create table transcript_words (transcript_id integer primary key, words tsvector not null)`.execute(db);
    await sql`create index transcript_words_gin on transcript_words using gin (words)`.execute(db);
    return;
  }
  await sql`create virtual table transcript_words using fts5(text, content='', contentless_delete=1, tokenize='porter unicode61')`.execute(
    db,
  );
}
