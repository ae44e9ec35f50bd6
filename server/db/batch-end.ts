/*
 * Work a group-commit batch's writers leave for its end (group-commit.ts): it runs once, after every writer's
 * savepoint and before the commit, inside the batch's transaction. What it writes commits with the writers' work or
 * not at all. Why: FTS5 writes what it holds in memory out as a segment of its own at every savepoint, so index rows
 * written by each writer inside its savepoint cost a segment per writer and the merges that follow; written once at
 * the end, a batch costs one.
 */

type Pending = { state: unknown; run: () => Promise<void> };

const batches = new WeakMap<object, Map<object, Pending>>();

/** Group commit opens a batch on its connection after BEGIN. */
export function openBatch(conn: object): void {
  batches.set(conn, new Map());
}

/** Group commit runs what the batch's writers left, in the order they first left it, before COMMIT. */
export async function closeBatch(conn: object): Promise<void> {
  const pending = batches.get(conn);
  batches.delete(conn);
  for (const { run } of pending?.values() ?? []) await run();
}

/** A batch that failed leaves nothing behind for the next one. */
export function dropBatch(conn: object): void {
  batches.delete(conn);
}

/**
 * The state a kind of work (`key`) keeps for the end of the batch `tx` belongs to: `make` is called for the batch's
 * first writer that asks, and its `run` goes at the batch's end. A writer rolled back to its savepoint has still left
 * what it left: the work must be right whatever the writers did (the search indexes are read again from the rows).
 * Undefined when `tx` is not a batch's transaction (a migration, a script): the caller does its work at once.
 */
export function forBatchEnd<S>(tx: object, key: object, make: () => { state: S; run: () => Promise<void> }): S | undefined {
  const pending = batches.get(tx);
  if (!pending) return undefined;
  let entry = pending.get(key);
  if (!entry) {
    entry = make();
    pending.set(key, entry);
  }
  return entry.state as S;
}
