/*
 * A contact's record (contacts.serializer.ts) is built from its row, up to eleven detail tables and the
 * organisation's folders, tags, custom fields and member names, then serialized: most of what a list costs.
 * Each server process keeps the serialized records it has built, and a list reads only each contact's id and
 * version, then builds the records it does not hold at that version.
 *
 * A kept record is used only while both numbers it was built under still hold:
 * - `contacts.version`, which every write to the contact's row or to its own detail rows raises in the same
 *   statement as the row's update (`nextVersion`, db/versions.ts);
 * - `organisations.catalog_version`, which every write to what records show from outside the contact raises in
 *   the same transaction (`bumpCatalog`, db/versions.ts): a folder's name or description, a member's names, a tag's title, a
 *   custom field's name, type or order.
 * Both are read before the record is built, so a kept record is never older than the numbers it is kept under.
 * Processes share nothing but the store, and the numbers come from the store, so a write in one process is seen
 * by the next list in every other. Contact ids are never reused (AUTOINCREMENT / identity).
 */

type Entry<T> = { version: number; catalog: number; json: T };

/**
 * Serialized contact records by contact id, the least recently used dropped past `capacity`; 0 keeps none. The server
 * keeps each as its UTF-8 bytes (`RecordCache<Buffer>`): a page of them is then copied into the answer as it is, not
 * joined as text and encoded again for every request.
 */
export class RecordCache<T = Buffer> {
  private readonly entries = new Map<number, Entry<T>>();

  constructor(readonly capacity: number) {}

  get size() {
    return this.entries.size;
  }

  get(id: number, version: number, catalog: number): T | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version || entry.catalog !== catalog) return undefined;
    // Map keeps insertion order: moving the entry to the end keeps the least recently used first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.json;
  }

  set(id: number, version: number, catalog: number, json: T) {
    if (this.capacity === 0) return;
    this.entries.delete(id);
    this.entries.set(id, { version, catalog, json });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
