import { type Expression, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../shared/db/database.js';
import type { Page } from '../../shared/pagination.js';

// A lab's plain list (no filter, the default order) reaches its page without walking the lab's index up to it
// (issue 27; docs/decisions/0028-page-marks.md). inventory_page_marks (migration 0044, kept exact by triggers)
// cuts the lab's items, in the list's order, into runs of about 200: the page's run is the last one whose items
// before it are at most the page's offset; the page is then read from that run's key, skipping the rest of the
// offset (fewer than a run). The same rows as `ORDER BY created_at, id LIMIT n OFFSET m`, because the runs' counts
// are exact: the items before a run's key are the sum of the counts of the runs before it.

/** The page's run: its key and how many of the lab's items sort before it (a window over the lab's ~n/200 runs). */
const pageRun = (ex: Executor, labId: string, offset: number) =>
  ex
    .selectFrom((db) =>
      db
        .selectFrom('inventory_page_marks')
        .select(['created_at', 'item_id', sql<number>`sum(items) over (order by created_at, item_id) - items`.as('before')])
        .where('lab_id', '=', labId)
        .as('runs'),
    )
    .where('before', '<=', offset)
    .orderBy('created_at', 'desc')
    .orderBy('item_id', 'desc')
    .limit(1);

/** The condition that starts the lab's page at its run's key (the lab's (lab_id, created_at, id) index seeks to it). */
export const fromPageRun = (ex: Executor, labId: string, page: Page): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref('inventory_items.created_at')}, ${sql.ref('inventory_items.id')}) >= (${pageRun(ex, labId, page.offset).select(['created_at', 'item_id'])})`;

/** How many of the run's items the page skips: the offset less the items before the run (0 when the lab has none). */
export const offsetInPageRun = (ex: Executor, labId: string, page: Page) =>
  sql<number>`coalesce((${pageRun(ex, labId, page.offset).select(sql<number>`${page.offset} - before`.as('skip'))}), 0)`;
