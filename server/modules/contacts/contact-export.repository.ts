import type { Db } from '../../db/database.js';

/*
 * What an export reads once, before its rows: the organisation's custom field definitions (one column each) and its
 * members' names (the owner column). The rows themselves come chunk by chunk through contact-records.repository.ts.
 */

export type ExportField = { id: number; display_name: string };
export type OwnerName = { id: number; first_name: string; last_name: string; username: string };

/** Every custom field of the organisation, in the order records list their values. */
export const exportFields = (db: Db, orgId: number): Promise<ExportField[]> =>
  db
    .selectFrom('custom_fields')
    .select(['id', 'display_name'])
    .where('org_id', '=', orgId)
    .orderBy('display_order')
    .orderBy('id')
    .execute();

/** The names of every member of the organisation (a contact's owner may be any of them, or a removed one). */
export const ownerNames = (db: Db, orgId: number): Promise<OwnerName[]> =>
  db.selectFrom('members').select(['id', 'first_name', 'last_name', 'username']).where('org_id', '=', orgId).execute();
