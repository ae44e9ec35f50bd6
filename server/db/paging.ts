import type { SelectQueryBuilder } from 'kysely';

/** What a list request asks for: the contract's page (from 1) and page_size. */
export type PageRequest = { page: number; page_size: number };

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
