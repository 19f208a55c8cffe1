import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/inventory/items.js';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// Plans, not timings: the statements of a page of items must not sort every visible item to return 25, which
// is what made an org admin's GET /inventory-items cost ~70 ms at 100,000 items on SQLite (bench/). SQLite only:
// its planner has no statistics unless ANALYZE ran, so the query's shape decides the plan; PostgreSQL's planner
// decides from statistics and is measured by the benchmark instead.

let h: Harness;
let counted: CountedApp;
let app: FastifyInstance;
let statements: string[] = [];
const isSqlite = !/^postgres/i.test(process.env.DATABASE_URL ?? '');

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql));
  app = counted.app;
});

afterAll(async () => {
  await counted?.close();
  await h?.close();
});

/** The plan of the statement that reads the page's items: ids of the page by the index, then their documents. */
async function pagePlan(url: string, token: string): Promise<string[]> {
  statements = [];
  const res = await app.inject({ method: 'GET', url, headers: { 'access-token': token } });
  expect(res.statusCode, res.body).toBe(200);
  const page = statements.find(
    (s) =>
      // The page's items as their stored documents (src/inventory/stored/), by the ids of the page.
      /^select "inventory_items"\."id", "inventory_items"\."rendered", "inventory_items"\."rendered_shape" from "inventory_items" where "inventory_items"\."id" in \(select "inventory_items"\."id" from/.test(
        s,
      ) && / limit \? offset \?\) order by/.test(s),
  );
  expect(page, statements.join('\n')).toBeDefined();
  const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${page!.replace(/\?/g, () => 'null')}`).execute(h.deps.db);
  return rows.map((r) => r.detail);
}

describe.skipIf(!isSqlite)('the page of GET /inventory-items (SQLite plans)', () => {
  it("for an org admin without lab_id seeks the (created_at, id, lab_id) index to the page's run and stops at the page: no sort of every item", async () => {
    const plan = await pagePlan('/inventory-items?per_page=25&page=3', h.a.admin.token);
    // The organization's runs (migration 0044) give the key the index is searched from, not its first entry.
    expect(plan.join(' / ')).toMatch(
      /SEARCH inventory_items USING COVERING INDEX inventory_items_page_idx \(\(created_at,id\)>\(\?,\?\)\)/,
    );
    // One sort only: the outer one, of the page's own rows; the ids come in index order.
    expect(plan.filter((line) => /TEMP B-TREE/.test(line))).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    expect(plan.at(-1)).toBe('USE TEMP B-TREE FOR ORDER BY');
  });

  it("with lab_id seeks the lab's slice of the (lab_id, created_at, id) index to the page's run: no walk from the lab's first item", async () => {
    const plan = await pagePlan(`/inventory-items?lab_id=${h.a.migratedLab.id}&per_page=25&page=3`, h.a.admin.token);
    const text = plan.join(' / ');
    // The lab first (its visibility checked once), then its slice of the index from the run's key (migration 0044),
    // not from the lab's start: the range has a lower bound on created_at.
    expect(text).toMatch(
      /SEARCH labs USING INDEX \S+ \(id=\?\) \/ SEARCH inventory_items USING COVERING INDEX inventory_items_lab_idx \(lab_id=\? AND \(created_at,id\)>\(\?,\?\)\)/,
    );
    // One sort only: the outer one, of the page's own rows; the ids come in index order.
    expect(plan.filter((line) => /TEMP B-TREE/.test(line))).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    expect(plan.at(-1)).toBe('USE TEMP B-TREE FOR ORDER BY');
  });
});

it('lists the same items for a member as before the plan changed: only the labs they belong to', async () => {
  // An item in a lab of the organization the member does not belong to: the admin sees it, the member must not.
  const hidden = await createItem(h.deps, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Not for members', quantity: '1' });
  const all = await app.inject({ method: 'GET', url: '/inventory-items?per_page=100', headers: { 'access-token': h.a.admin.token } });
  expect(all.json().map((i: { id: string }) => i.id)).toContain(hidden.id);
  const res = await app.inject({ method: 'GET', url: '/inventory-items?per_page=100', headers: { 'access-token': h.a.member.token } });
  expect(res.statusCode).toBe(200);
  const labs = new Set(res.json().map((i: { lab: { id: string } }) => i.lab.id));
  expect([...labs].sort()).toEqual([h.a.legacyLab.id, h.a.migratedLab.id].sort());
});
