import type { Store } from '../../db/database.js';
import type { RecordingStore } from '../../recordings/store.js';
import { toTimestamp } from '../../lib/time.js';
import { nextTurn } from '../../db/chunks.js';
import { expireRecordings, filed, retentionsOf, unfiledRecordings } from './recording-retention.repository.js';

const DAY_MS = 86_400_000;

/**
 * Each organisation keeps recordings and their transcripts for its `recording_retention_days`, counted from the call's
 * recording. Two steps, so that a process dying between them loses nothing and leaks nothing: a transaction marks a
 * chunk of recordings deleted and empties their transcripts (the call says 'deleted' from then on), then their files
 * are removed and the rows forget their keys. Removing a file twice is harmless, so processes passing together only
 * repeat each other's work. Answers the recordings marked.
 */
export async function expireOldRecordings(store: Store, files: RecordingStore, atMs: number, stopping: () => boolean): Promise<number> {
  let marked = 0;
  for (const org of await retentionsOf(store.db)) {
    const days = org.recording_retention_days;
    const before = toTimestamp(new Date(atMs - days * DAY_MS));
    const reason = `Deleted with its recording after ${days} day${days === 1 ? '' : 's'}, the organisation's retention.`;
    for (;;) {
      const n = await store.write((tx) => expireRecordings(tx, org.id, before, atMs, reason));
      marked += n;
      await removeFiles(store, files);
      if (n === 0 || stopping()) break;
      await nextTurn();
    }
    if (stopping()) break;
  }
  return marked;
}

/** Removes the files of recordings marked deleted (those of this pass, and any a stopped process left). */
async function removeFiles(store: Store, files: RecordingStore): Promise<void> {
  for (;;) {
    const rows = await unfiledRecordings(store.db);
    if (!rows.length) return;
    for (const row of rows) await files.delete(row.storage_key!);
    await store.write((tx) =>
      filed(
        tx,
        rows.map((r) => r.id),
      ),
    );
  }
}
