import { type Expression, type SqlBool, sql } from 'kysely';
import { labIsVisible } from '../../labs/repository.js';
import type { Actor } from '../../shared/actor.js';
import type { Executor } from '../../shared/db/database.js';
import type { Page } from '../../shared/pagination.js';

// A plain list (no filter, the default order) of one lab, or of an organization for its admin, reaches its page
// without walking the index up to it (issue 27; docs/decisions/0028-page-marks.md). inventory_page_marks
// (migration 0044, kept exact by triggers) cuts the scope's items, in the list's order, into runs of about 1,000.
// The list reads the scope's runs in place of its count (their counts add up to it), picks the last run whose items
// before it are at most the page's offset, and reads the page from that run's key, skipping the rest of the offset
// (fewer than a run). The same rows as `ORDER BY created_at, id LIMIT n OFFSET m`, because the runs' counts are
// exact: the items before a run's key are the sum of the counts of the runs before it.

/** Where a page starts: a run's key and how many of the scope's items from it the page skips. */
export interface PageStart {
  createdAt: string;
  itemId: string;
  skip: number;
}

/**
 * The scope of the runs a list can start from: its lab, or the organization when its admin (who sees every lab of
 * it) lists without lab_id. None for a member's list of several labs, or a filtered or sorted one.
 */
export function runsScopeOf(actor: Actor, labId: string | undefined, plain: boolean): RunsScope | undefined {
  if (!plain) return undefined;
  if (labId !== undefined) return { id: labId, lab: true };
  return actor.role === 'admin' ? { id: actor.organizationId, lab: false } : undefined;
}

/**
 * The runs' scope: a lab, whose visibility the runs' query checks, or the admin's own organization. Told apart by
 * how the list was asked, never by comparing ids: an organization's id given as `lab_id` is no lab, and its runs
 * (the organization's count) are not the caller's to read.
 */
export interface RunsScope {
  id: string;
  lab: boolean;
}

/** The scope's runs in the list's order (~n/1,000 rows); none when the lab is not visible to the caller. */
export function pageRuns(ex: Executor, actor: Actor, scopeId: string, checkLab: boolean) {
  let q = ex
    .selectFrom('inventory_page_marks')
    .select(['created_at', 'item_id', 'items'])
    .where('scope_id', '=', scopeId)
    .orderBy('created_at')
    .orderBy('item_id');
  // A lab: its visibility checked on that row alone. The admin's own organization needs none.
  if (checkLab) q = q.where((eb) => eb.exists(labIsVisible(ex, actor, 'inventory_page_marks.scope_id')));
  return q;
}

/** The list's total and where its page starts (undefined: the scope has no item, the page is empty). */
export function pageStart(runs: { created_at: string; item_id: string; items: number | string }[], page: Page) {
  let before = 0;
  let start: PageStart | undefined;
  for (const run of runs) {
    if (before <= page.offset) start = { createdAt: run.created_at, itemId: run.item_id, skip: page.offset - before };
    before += Number(run.items);
  }
  return { total: before, start };
}

/** The condition that starts the page at its run's key (the list's index seeks to it). */
export const fromRunKey = (start: PageStart): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref('inventory_items.created_at')}, ${sql.ref('inventory_items.id')}) >= (${start.createdAt}, ${start.itemId})`;
