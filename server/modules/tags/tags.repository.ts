import type { Db } from '../../db/database.js';
import { paged, type PageRequest } from '../../db/paging.js';

/** A page of the organisation's tag catalogue, by title (case-insensitive) then id. */
export function listTags(db: Db, orgId: number, page: PageRequest) {
  return paged(db.selectFrom('tags').where('org_id', '=', orgId), (q) => q.select(['id', 'title']).orderBy('title_lc').orderBy('id'), page);
}
