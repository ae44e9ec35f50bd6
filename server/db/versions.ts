import type { ExpressionBuilder } from 'kysely';
import type { Db } from './database.js';
import { prepared } from './prepared.js';
import type { Database } from './schema.js';

/*
 * The two numbers a kept contact record is checked against (lib/record-cache.ts): every write raises the one it
 * changes in its own transaction. The rules are in docs/store.md.
 */

/** The value that raises a contact's version by one: put it in every update of `contacts` rows. */
export const nextVersion = (eb: ExpressionBuilder<Database, 'contacts'>) => eb('contacts.version', '+', 1);

/** Raises the organisation's catalog version: call it in the transaction of every write to what records show of it. */
export async function bumpCatalog(tx: Db, orgId: number) {
  await tx
    .updateTable('organisations')
    .set((eb) => ({ catalog_version: eb('catalog_version', '+', 1) }))
    .where('id', '=', orgId)
    .execute();
}

const catalogQuery = prepared<null, { orgId: number }, { catalog_version: number }>('catalog version', (db, _, p) =>
  db.selectFrom('organisations').select('catalog_version').where('id', '=', p.orgId),
);

export async function catalogVersion(db: Db, orgId: number): Promise<number> {
  return (await catalogQuery(db, null, { orgId }))[0]?.catalog_version ?? 0;
}
