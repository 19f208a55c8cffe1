import type { Actor } from '../../shared/actor.js';
import { type Executor, isPostgres } from '../../shared/db/database.js';
import { precompiled } from '../../shared/db/precompiled.js';
import type { Page } from '../../shared/pagination.js';
import { pageRuns, pageStart, runsScopeOf } from './page-marks-repository.js';
import { itemPageQueries, type PageRow } from './repository.js';
import { countBoundOf, type ItemFilter, type ItemOrder, isSearch } from './rules.js';

// GET /inventory-items: the page's rows and the list's total (./repository.ts builds the statements).
//
// The plain list (no filter, the default order: what an integrator's sync and the app's first page ask for) runs
// the same two statements for every page but their values: they are built and compiled once per shape
// (src/shared/db/precompiled.ts), where Kysely building them again was ~15 % of a list request's CPU
// (docs/performance.md, "Issue 27, point 5").

type Shape = { role: Actor['role']; lab: boolean; descending: boolean; start: boolean };
const shapeOf = (s: Shape) => `${s.role}:${s.lab ? 'lab' : 'all'}:${s.descending ? 'desc' : 'asc'}:${s.start ? 'run' : 'offset'}`;
const parse = (shape: string): Shape => {
  const [role, lab, order, start] = shape.split(':');
  return { role: role as Actor['role'], lab: lab === 'lab', descending: order === 'desc', start: start === 'run' };
};
const actorOf = (role: Actor['role'], organizationId: string, userId: string): Actor => ({ tokenId: '', organizationId, userId, role });

// The scope's runs: a lab's visibility is checked on its row; the admin's own organization needs none (`own`).
const runsQuery = precompiled((ex, shape, scopeId: string, organizationId: string, userId: string) => {
  const [role, own] = shape.split(':');
  return pageRuns(ex, actorOf(role as Actor['role'], organizationId, userId), scopeId, own !== 'own');
});

const pageQuery = precompiled(
  (ex, shape, labId: string, organizationId: string, userId: string, createdAt: string, itemId: string, perPage: number, skip: number) => {
    const s = parse(shape);
    return itemPageQueries(
      ex,
      actorOf(s.role, organizationId, userId),
      s.lab ? { labId } : {},
      { column: null, descending: s.descending },
      // Without a run to start from, the page skips its whole offset (`skip`).
      { page: 1, perPage, offset: skip },
      false,
      s.start ? { createdAt, itemId, skip } : undefined,
    ).rows;
  },
);

/** The page's rows and the list's total: exact, or a lower bound (`exact` false) when a search's count reached its bound. */
export async function listVisibleItems(ex: Executor, actor: Actor, filter: ItemFilter, order: ItemOrder, page: Page) {
  const scope = runsScopeOf(actor, filter.labId, !isSearch(filter) && order.column === null);
  if (scope !== undefined) {
    // The runs replace the count (their counts add up to it), and give the page its start.
    const runs = await runsQuery(ex, `${actor.role}:${scope.lab ? 'lab' : 'own'}`, scope.id, actor.organizationId, actor.userId);
    const { total, start } = pageStart(runs, page);
    const shape = shapeOf({ role: actor.role, lab: filter.labId !== undefined, descending: order.descending, start: start !== undefined });
    const rows: PageRow[] = await pageQuery(
      ex,
      shape,
      filter.labId ?? '',
      actor.organizationId,
      actor.userId,
      start?.createdAt ?? '',
      start?.itemId ?? '',
      page.perPage,
      start?.skip ?? page.offset,
    );
    return { total, exact: true, rows };
  }
  const bound = isSearch(filter) ? countBoundOf(page) : Number.POSITIVE_INFINITY;
  const q = itemPageQueries(ex, actor, filter, order, page);
  let n: number;
  let rows: PageRow[];
  if (isPostgres(ex) || filter.expiringBefore === undefined) {
    const [count, found] = await Promise.all([q.count.executeTakeFirstOrThrow(), q.rows.execute()]);
    [n, rows] = [Number(count.n), found];
  } else {
    // SQLite's expiry page is planned by the count (itemPageQueries' `many`).
    n = Number((await q.count.executeTakeFirstOrThrow()).n);
    rows = await (n >= bound ? itemPageQueries(ex, actor, filter, order, page, true) : q).rows.execute();
  }
  return n >= bound ? { total: bound - 1, exact: false, rows } : { total: n, exact: true, rows };
}
