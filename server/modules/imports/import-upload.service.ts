import type { Readable } from 'node:stream';
import { parse as csvParser } from 'csv-parse';
import type { AuthContext } from '../../auth/access.js';
import type { ImportDelimiter, ImportEncoding } from '../../contracts/imports.js';
import type { Store } from '../../db/database.js';
import { DomainError, invalidField } from '../../lib/errors.js';
import { now } from '../../lib/time.js';
import { encodingOf, hasBom, isBinary, sniffDelimiter } from './csv-sniff.js';
import { deleteImport, insertImport, insertRows, updateImport } from './imports.repository.js';

export type ImportLimits = { maxBytes: number; maxRows: number };

/** The bytes looked at before parsing: enough for the encoding and the delimiter of the first lines. */
const SNIFF_BYTES = 64 * 1024;
/** Rows per staging statement (3 parameters each, well under SQLite's 32,766) and per staging transaction. */
const STAGE_BATCH = 1_000;
const SAMPLES = 3;
/** The longest row, in characters (a note may be long; a whole file in one field is a broken quote). */
const MAX_RECORD_CHARS = 1_000_000;

/** A whole file refused: nothing of it is kept. `tooLarge` is the 413 of a file over IMPORT_MAX_BYTES. */
export class FileRefused extends Error {
  constructor(
    reason: string,
    readonly tooLarge = false,
  ) {
    super(reason);
  }
}

const refuse = (reason: string) => invalidField('body', reason);

/** The upload's bytes, counted against the limit and checked for NUL bytes as they come. */
async function* checkedBytes(source: AsyncIterable<Buffer>, limits: ImportLimits, state: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    state.bytes += chunk.length;
    if (state.bytes > limits.maxBytes)
      throw new FileRefused(`The file is larger than ${formatBytes(limits.maxBytes)}, the most an import may be.`, true);
    if (isBinary(chunk))
      throw new FileRefused(
        'The file is not a CSV file: it holds binary data (NUL bytes). Save it from your spreadsheet as CSV and upload that.',
      );
    yield chunk;
  }
}

/** Where the first byte of a non-ASCII character is, or -1. */
function firstHighByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(n / 1024)} KB`;

/** The first bytes (to sniff), then the rest, as one stream of text in the encoding the first bytes say. */
async function* decoded(bytes: AsyncGenerator<Buffer>, sniffed: { encoding?: ImportEncoding; delimiter?: ImportDelimiter; head?: string }) {
  const head: Buffer[] = [];
  let size = 0;
  let next = await bytes.next();
  while (!next.done && size < SNIFF_BYTES) {
    head.push(next.value);
    size += next.value.length;
    next = await bytes.next();
  }
  let first = Buffer.concat(head);
  if (hasBom(first)) first = first.subarray(3);
  /*
   * Bytes below 0x80 read the same in both encodings: a file whose first bytes are all such is decided by its first
   * byte above (a name with an accent on row 5,000 of a Windows-1252 export), not taken for UTF-8 and refused there.
   */
  let decided = firstHighByte(first) >= 0 || next.done === true;
  let encoding = encodingOf(first);
  let decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
  const decode = (chunk: Buffer, stream: boolean) => {
    const high = decided ? -1 : firstHighByte(chunk);
    if (high >= 0) {
      decided = true;
      encoding = encodingOf(chunk.subarray(high));
      if (encoding === 'windows-1252') decoder = new TextDecoder(encoding);
      sniffed.encoding = encoding;
    }
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      throw new FileRefused(
        'The file is not valid UTF-8 throughout (it starts as UTF-8, then has bytes that are not). Save it as UTF-8 or as Windows-1252 and upload it again.',
      );
    }
  };
  const text = decode(first, true);
  sniffed.encoding = encoding;
  sniffed.delimiter = sniffDelimiter(text);
  yield text;
  while (!next.done) {
    yield decode(next.value, true);
    next = await bytes.next();
  }
  const tail = decode(Buffer.alloc(0), false);
  if (tail) yield tail;
}

type Staging = { id: number; header: string[]; samples: string[][]; rows: number };

/**
 * Reads an upload as it streams in: checks and decodes its bytes, parses it (csv-parse, a row with more fields than
 * the header is kept and refused as a row later), and stages its rows in batches, one transaction each, under an
 * import in state 'staging' that nobody sees. A file refused midway is deleted with its rows. Answers the import's id.
 */
export async function stageUpload(
  store: Store,
  auth: AuthContext,
  filename: string,
  source: Readable,
  limits: ImportLimits,
): Promise<number> {
  const counted = { bytes: 0 };
  const sniffed: { encoding?: ImportEncoding; delimiter?: ImportDelimiter } = {};
  const text = decoded(checkedBytes(source, limits, counted), sniffed);
  let staging: Staging | undefined;
  try {
    staging = await parseAndStage(store, auth, filename, text, sniffed, limits);
    if (!staging) throw refuse(counted.bytes ? 'The file has no rows: it holds nothing but blank lines.' : 'The file is empty.');
    if (!staging.rows) throw refuse('The file has a header but no rows.');
    const { id, header, samples, rows } = staging;
    await store.write((tx) =>
      updateImport(tx, id, {
        status: 'uploaded',
        byte_size: counted.bytes,
        header: JSON.stringify(header),
        samples: JSON.stringify(samples),
        row_count: rows,
        encoding: sniffed.encoding!,
        delimiter: sniffed.delimiter!,
      }),
    );
    return id;
  } catch (error) {
    if (staging) await store.write((tx) => deleteImport(tx, staging!.id));
    else if (error instanceof StagedError) await store.write((tx) => deleteImport(tx, error.id));
    throw error instanceof StagedError ? error.cause : error;
  }
}

class StagedError extends Error {
  constructor(
    readonly id: number,
    override readonly cause: unknown,
  ) {
    super('staging failed');
  }
}

async function parseAndStage(
  store: Store,
  auth: AuthContext,
  filename: string,
  text: AsyncGenerator<string>,
  sniffed: { delimiter?: ImportDelimiter; encoding?: ImportEncoding },
  limits: ImportLimits,
): Promise<Staging | undefined> {
  const first = await text.next();
  if (first.done) return undefined;
  const parser = csvParser({
    delimiter: sniffed.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // A stray quote would otherwise hold the rest of the file as one field: memory stays bounded whatever comes.
    max_record_size: MAX_RECORD_CHARS,
  });
  const feeding = (async () => {
    try {
      if (!parser.write(first.value)) await new Promise((r) => parser.once('drain', r));
      for await (const piece of text) if (!parser.write(piece)) await new Promise((r) => parser.once('drain', r));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let staging: Staging | undefined;
  let batch: { row_no: number; fields: string }[] = [];
  const flush = async () => {
    const rows = batch;
    batch = [];
    if (rows.length) await store.write((tx) => insertRows(tx, staging!.id, rows));
  };
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!staging) {
        staging = { id: 0, header: record.map((h) => h.trim()), samples: record.map(() => []), rows: 0 };
        staging.id = (await store.write((tx) => insertImport(tx, stagingRow(auth, filename, sniffed)))).id;
        continue;
      }
      if (record.every((cell) => cell.trim() === '')) continue;
      if (++staging.rows > limits.maxRows)
        throw new FileRefused(
          `The file has more than ${limits.maxRows.toLocaleString('en-US')} rows, the most an import may have. Split it into smaller files.`,
        );
      record.forEach((cell, i) => {
        const kept = staging!.samples[i];
        if (kept && kept.length < SAMPLES && cell.trim()) kept.push(cell.trim().slice(0, 200));
      });
      batch.push({ row_no: staging.rows, fields: JSON.stringify(record) });
      if (batch.length >= STAGE_BATCH) await flush();
    }
    await feeding;
    await flush();
    return staging;
  } catch (error) {
    text.return(undefined).catch(() => undefined);
    await feeding;
    const reason =
      error instanceof FileRefused || error instanceof DomainError
        ? error
        : new FileRefused(`The file could not be read as CSV: ${(error as Error).message}`);
    if (staging) throw new StagedError(staging.id, reason);
    throw reason;
  }
}

const stagingRow = (auth: AuthContext, filename: string, sniffed: { delimiter?: ImportDelimiter; encoding?: ImportEncoding }) => ({
  org_id: auth.scope.orgId,
  member_id: auth.member.id,
  filename,
  byte_size: 0,
  encoding: sniffed.encoding ?? 'utf-8',
  delimiter: sniffed.delimiter ?? ',',
  header: '[]',
  samples: '[]',
  row_count: 0,
  status: 'staging' as const,
  created_at: now(),
});
