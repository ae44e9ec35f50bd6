import type { Kysely } from 'kysely';

/*
 * Which store a connection belongs to, recorded once when the store opens (database.ts). Every connection and
 * transaction of one store shares its Kysely adapter (Kysely makes it once per instance and hands it to each
 * transaction's executor), so the adapter keys it. What a store does its own way beyond SQL (the contacts' search:
 * modules/contacts/search/) is chosen by it.
 */
export type StoreKind = 'sqlite' | 'postgres';

const kinds = new WeakMap<object, StoreKind>();

export function markStore(kind: StoreKind, ...dbs: Kysely<any>[]): void {
  for (const db of dbs) kinds.set(db.getExecutor().adapter, kind);
}

export function storeKind(db: Kysely<any>): StoreKind {
  const kind = kinds.get(db.getExecutor().adapter);
  if (!kind) throw new Error('This connection was not opened by openStore.');
  return kind;
}
