import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/*
 * Where recordings live: behind this interface so that object storage (S3 and the like: put, ranged get, delete) can
 * take the place of files later without touching the rest. The file store keeps them under DATA_DIR/recordings; with
 * several servers on several machines that directory must be shared (docs/carrier.md, "Recordings").
 */
export type RecordingStore = {
  /** Stores the bytes under `key`, durably (answers once they are on disk), replacing any earlier ones. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Its size in bytes, or undefined when there is nothing under `key`. */
  size(key: string): Promise<number | undefined>;
  /** Its bytes, or those from `start` to `end` (inclusive). */
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
};

/** Keys are made by us (recordingKey), never taken from a request; a key that could leave the directory is refused all the same. */
function safePath(dir: string, key: string): string {
  if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.split('/').some((part) => part === '..' || part === ''))
    throw new Error(`not a recording key: ${key}`);
  return path.join(dir, key);
}

export function fileRecordingStore(dir: string): RecordingStore {
  return {
    async put(key, bytes) {
      const file = safePath(dir, key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      const handle = await fs.promises.open(temporary, 'w');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temporary, file);
      const folder = await fs.promises.open(path.dirname(file), 'r');
      await folder.sync().finally(() => folder.close());
    },
    async size(key) {
      try {
        return (await fs.promises.stat(safePath(dir, key))).size;
      } catch {
        return undefined;
      }
    },
    read: (key, range) => fs.createReadStream(safePath(dir, key), range ?? {}),
    delete: (key) => fs.promises.rm(safePath(dir, key), { force: true }),
  };
}

/** A recording's key: by organisation and month, so a retention pass or a backup can take a folder at a time. */
export const recordingKey = (orgId: number, createdAt: string, callId: number) => `${orgId}/${createdAt.slice(0, 7)}/${callId}.opus`;
