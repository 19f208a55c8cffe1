import type { SelectQueryBuilder } from 'kysely';
import type { Page } from '../pagination.js';

/** A page of a list: its rows and the number of rows of the whole list (the `X-Total-Count` header). */
export interface PagedRows<O> {
  total: number;
  rows: O[];
}

/**
 * The paged list query of every list endpoint (src/shared/pagination.ts sets its headers): `count(*) as n` over the
 * filtered query, and the page of the ordered rows query (LIMIT perPage OFFSET offset), the two run together.
 * `rows` is usually `filtered` with its columns and order; the order must end on a unique column (the id) so that
 * pages neither repeat nor skip a row. GET /inventory-items is not built on it: its count is bounded and its plan
 * chosen by the count (src/inventory/search/repository.ts).
 */
export async function pagedList<DB, TB extends keyof DB, F, RTB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, F>,
  rows: SelectQueryBuilder<DB, RTB, O>,
  page: Page,
): Promise<PagedRows<O>> {
  const [count, found] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    rows.limit(page.perPage).offset(page.offset).execute(),
  ]);
  // `n` is the one column selected; generic over the query, TypeScript cannot see it in the selection's type.
  return { total: Number((count as { n: string | number }).n), rows: found };
}
