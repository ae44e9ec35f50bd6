import type { Db } from '../../db/database.js';
import type { ClientRow } from '../../auth/oauth.repository.js';

/* The integrations an organisation registered, and the ones a member connected (its live grants, by integration). */

export const listClients = (db: Db, orgId: number): Promise<ClientRow[]> =>
  db.selectFrom('oauth_clients').selectAll().where('org_id', '=', orgId).where('deleted_at', 'is', null).orderBy('id').execute();

export const findClient = (db: Db, orgId: number, id: number): Promise<ClientRow | undefined> =>
  db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export async function insertClient(tx: Db, row: Omit<ClientRow, 'id' | 'deleted_at'>): Promise<ClientRow> {
  return tx.insertInto('oauth_clients').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateClient(
  tx: Db,
  id: number,
  changes: Partial<Pick<ClientRow, 'name' | 'redirect_uris' | 'secret_hash' | 'deleted_at'>> & { updated_at: string },
): Promise<ClientRow> {
  return tx.updateTable('oauth_clients').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export type ConnectionRow = { client_id: number; name: string; connected_at: string; last_used_at: string | null };

/** One row per integration the member has a live grant to: when it was first allowed, when a token of it was last used. */
export const connectionsOf = (db: Db, memberId: number): Promise<ConnectionRow[]> =>
  db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .leftJoin('access_tokens as t', 't.grant_id', 'g.id')
    .select((eb) => [
      'c.id as client_id',
      'c.name',
      eb.fn.min('g.created_at').as('connected_at'),
      eb.fn.max('t.last_used_at').as('last_used_at'),
    ])
    .where('g.member_id', '=', memberId)
    .where('g.revoked_at', 'is', null)
    .where('c.deleted_at', 'is', null)
    .groupBy(['c.id', 'c.name'])
    .orderBy('c.id')
    .execute() as Promise<ConnectionRow[]>;
