import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

/** What a list request asks for: the contract's page (from 1) and page_size. */
export type PageRequest = { page: number; page_size: number };

/**
 * A constant LIMIT written into the SQL instead of bound. SQLite reads a bound LIMIT's value while it plans, and so
 * plans the statement again every time that parameter is bound: at every run. That cost a look-up of a call 23 us
 * instead of 7, a duplicate check 26 us instead of 3. Each value is a statement of its own in the statement cache, so
 * this is for limits the code fixes, not for a page size a caller chooses.
 */
export const fixedLimit = (n: number): RawBuilder<number> => sql.lit(n);

export const pageWindow = (p: PageRequest) => ({ limit: p.page_size, offset: (p.page - 1) * p.page_size });

/**
 * A page of a query's rows and how many rows the query matches in all: the one way lists page. `base` holds the
 * filters; `rows` adds what to select and the order.
 */
export async function paged<DB, TB extends keyof DB, R>(
  base: SelectQueryBuilder<DB, TB, object>,
  rows: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, R>,
  page: PageRequest,
): Promise<{ rows: R[]; total: number }> {
  const { limit, offset } = pageWindow(page);
  const [items, count] = await Promise.all([
    rows(base).limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: items as R[], total: Number((count as { n: number }).n) };
}
