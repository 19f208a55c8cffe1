import { type Expression, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../shared/db/database.js';
import type { Page } from '../../shared/pagination.js';

// A plain list (no filter, the default order) of one lab, or of an organization for its admin, reaches its page
// without walking the index up to it (issue 27; docs/decisions/0028-page-marks.md). inventory_page_marks
// (migration 0044, kept exact by triggers) cuts the scope's items, in the list's order, into runs of about 200: the
// page's run is the last one whose items before it are at most the page's offset; the page is then read from that
// run's key, skipping the rest of the offset (fewer than a run). The same rows as `ORDER BY created_at, id LIMIT n
// OFFSET m`, because the runs' counts are exact: the items before a run's key are the sum of the counts before it.

/** The page's run: its key and how many of the scope's items sort before it (a window over the scope's ~n/200 runs). */
const pageRun = (ex: Executor, scopeId: string, offset: number) =>
  ex
    .selectFrom((db) =>
      db
        .selectFrom('inventory_page_marks')
        .select(['created_at', 'item_id', sql<number>`sum(items) over (order by created_at, item_id) - items`.as('before')])
        .where('scope_id', '=', scopeId)
        .as('runs'),
    )
    .where('before', '<=', offset)
    .orderBy('created_at', 'desc')
    .orderBy('item_id', 'desc')
    .limit(1);

/** The condition that starts the page at its run's key (the list's index seeks to it). */
export const fromPageRun = (ex: Executor, scopeId: string, page: Page): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref('inventory_items.created_at')}, ${sql.ref('inventory_items.id')}) >= (${pageRun(ex, scopeId, page.offset).select(['created_at', 'item_id'])})`;

/** How many of the run's items the page skips: the offset less the items before the run (0 when the scope has none). */
export const offsetInPageRun = (ex: Executor, scopeId: string, page: Page) =>
  sql<number>`coalesce((${pageRun(ex, scopeId, page.offset).select(sql<number>`${page.offset} - before`.as('skip'))}), 0)`;
