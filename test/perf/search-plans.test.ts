import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemPageQueries } from '../../src/inventory/search/repository.js';
import { filterOf, type ItemFilter, orderOf } from '../../src/inventory/search/rules.js';
import { createLab } from '../../src/labs/service.js';
import { createLocation } from '../../src/locations/service.js';
import type { Actor } from '../../src/shared/actor.js';
import { isPostgres } from '../../src/shared/db/database.js';
import { newId } from '../../src/shared/ids.js';
import { itemSearchDocument, NO_EXPIRY, nameSortKey } from '../../src/shared/search-text.js';
import { createType } from '../../src/types/service.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// Plans, not timings, of GET /inventory-items' search, filters and sorts (docs/product.md §12: each a real index, none a
// scan), on both databases. The statements are the ones the list runs (itemPageQueries), planned with their
// parameters over 6,000 items: with statistics on PostgreSQL (ANALYZE, as autovacuum keeps them), without on
// SQLite (as Labstock's SQLite databases are).
// On PostgreSQL sequential scans are priced out (enable_seqscan off) so that the plan shows which index the
// query can use; at this size a scan would otherwise be as cheap. bench/ measures the timings.

const N = 6000;
const RARE_VENDOR = 'Zymoresearch';
let h: Harness;
let admin: Actor;
let member: Actor;
let labId: string;
let typeId: string;
const postgres = () => isPostgres(h.deps.db);

beforeAll(async () => {
  h = await startHarness();
  admin = { tokenId: 't', userId: h.a.admin.id, organizationId: h.a.orgId, role: 'admin' };
  member = { ...admin, userId: h.a.member.id, role: 'member' };
  labId = h.a.migratedLab.id;
  const labs = [h.a.migratedLab.id, h.a.legacyLab.id];
  // Migrated labs and the location their instances are kept at (the fixture's lab: boxes, below).
  const stores = new Map<string, string | null>([[h.a.migratedLab.id, null]]);
  for (let i = 0; i < 6; i++) {
    const lab = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: `Plan lab ${i}`,
      usesInstances: i % 2 === 0,
    });
    labs.push(lab.id);
    if (i % 2 === 0)
      stores.set(lab.id, (await createLocation(h.deps.db, h.a.admin.actor, { labId: lab.id, parentId: null, name: 'Store' })).id);
  }
  const types = [];
  for (const lab of labs)
    for (let t = 0; t < 10; t++) types.push({ lab, id: (await createType(h.deps, h.a.admin.actor, { labId: lab, name: `T${t}` })).id });
  typeId = types[3]!.id;
  // Every instance somewhere: 5 boxes on the fixture's shelf (room > freezer > shelf), 295 in an annex.
  const annex = (await createLocation(h.deps.db, h.a.admin.actor, { labId: h.a.migratedLab.id, parentId: null, name: 'Annex' })).id;
  const boxes = [];
  for (let b = 0; b < 300; b++)
    boxes.push(
      (
        await createLocation(h.deps.db, h.a.admin.actor, {
          labId: h.a.migratedLab.id,
          parentId: b < 5 ? h.a.migratedLab.locationIds[2]! : annex,
          name: `Box ${b}`,
        })
      ).id,
    );
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  const start = Date.UTC(2024, 0, 1);
  const items = [];
  const instances = [];
  const docs = [];
  for (let g = 0; g < N; g++) {
    const lab = labs[g % labs.length]!;
    const migrated = stores.has(lab);
    const created = new Date(start + g * 60_000).toISOString();
    const id = newId();
    const expiry = g % 3 === 0 ? null : day((g * 37) % 1000);
    const row = {
      id,
      lab_id: lab,
      type_id: types.filter((t) => t.lab === lab)[g % 10]!.id,
      name: `Reagent ${['alpha', 'beta', 'gamma', 'delta'][g % 4]} ${g}`,
      vendor: g === 4321 ? RARE_VENDOR : 'Sigma',
      catalog_number: `C-${g}`,
      cas_number: null,
      serial_number: null,
      lot_number: migrated ? null : `L${g}`,
      quantity: '1',
      expiration_date: migrated ? null : expiry,
      added_by: h.a.admin.id,
      updated_by: h.a.admin.id,
      version: 1,
      created_at: created,
      updated_at: created,
      minimum_quantity: g % 500 === 0 ? '5' : null,
      below_minimum: g % 500 === 0 ? 1 : 0,
      soonest_expiry: expiry ?? NO_EXPIRY,
      name_key: '',
    };
    row.name_key = nameSortKey(row.name);
    items.push(row);
    for (let k = 0; migrated && k < 3; k++)
      instances.push({
        id: newId(),
        item_id: id,
        quantity: '1',
        lot_number: `L${g}`,
        expiration_date: expiry,
        location_id: stores.get(lab) ?? boxes[(g + k) % boxes.length]!,
        archived_at: null,
        created_at: created,
        updated_at: created,
      });
    docs.push({ item_id: id, lab_id: lab, created_at: created, document: itemSearchDocument(row, migrated ? [`L${g}`] : []) });
  }
  for (let i = 0; i < N; i += 200) {
    await h.deps.db
      .insertInto('inventory_items')
      .values(items.slice(i, i + 200))
      .execute();
    await h.deps.db
      .insertInto('inventory_item_search')
      .values(docs.slice(i, i + 200))
      .execute();
  }
  for (let i = 0; i < instances.length; i += 200)
    await h.deps.db
      .insertInto('inventory_item_instances')
      .values(instances.slice(i, i + 200))
      .execute();
  // PostgreSQL plans by statistics, which autovacuum keeps in a running database; SQLite has none unless someone
  // runs ANALYZE (Labstock does not), so its plans must be right without them.
  if (postgres()) await sql`analyze`.execute(h.deps.db);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** The plan of a statement with its parameters: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's EXPLAIN lines. */
async function planOf(query: CompiledQuery): Promise<string> {
  const db = h.deps.db;
  if (!postgres()) {
    const r = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return r.rows.map((x) => x.detail).join('\n');
  }
  return db.connection().execute(async (c) => {
    await sql`set enable_seqscan = off`.execute(c);
    try {
      const r = await c.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(c);
    }
  });
}

async function plans(query: Record<string, unknown>, actor = admin, many = false) {
  const filter: ItemFilter = filterOf(query as Parameters<typeof filterOf>[0]);
  const q = itemPageQueries(h.deps.db, actor, filter, orderOf(query.sort as never), { page: 2, perPage: 25, offset: 25 }, many);
  return { rows: await planOf(q.rows.compile()), count: await planOf(q.count.compile()) };
}

/** Both statements of the page use the index (its name in the plan) and neither reads a whole table. */
async function expectIndex(query: Record<string, unknown>, index: RegExp, actor = admin) {
  const p = await plans(query, actor);
  for (const plan of [p.rows, p.count]) {
    expect(plan, plan).toMatch(index);
    expect(plan, plan).not.toMatch(postgres() ? /Seq Scan on inventory_items\b/ : /SCAN inventory_items(?! USING COVERING INDEX)/);
  }
  return p;
}

/** The PostgreSQL plan nodes below the page's LIMIT. */
const belowLimit = (plan: string): string => plan.slice(plan.indexOf('->  Limit') + 1);

/** Words of 3 characters or more: the trigram indexes (migration 0025). */
const FTS = () =>
  postgres() ? /Bitmap Index Scan on inventory_item_search_trgm_idx/ : /SCAN inventory_item_search_trigram VIRTUAL TABLE INDEX/;
/** Only shorter words: the word indexes (migrations 0010, 0016, 0025), by the start of a word. */
const WORDS = () =>
  postgres() ? /Bitmap Index Scan on inventory_item_search_document_idx/ : /SCAN inventory_item_search_fts VIRTUAL TABLE INDEX/;

describe('GET /inventory-items search and filters use their indexes (SQLite and PostgreSQL plans)', () => {
  it('q: the full-text index, for an admin, a member and within a lab', async () => {
    await expectIndex({ q: RARE_VENDOR.slice(0, 5) }, FTS());
    await expectIndex({ q: 'zymo c-4321' }, FTS(), member);
    await expectIndex({ q: 'zymo', lab_id: h.a.legacyLab.id }, FTS());
    // Dashes and operators in q do not keep the index from being used.
    await expectIndex({ q: '"zymo" AND -c-4321*' }, FTS());
  });

  it('q inside words across every visible lab (issue 23): the trigram index; short words alone: the word index', async () => {
    for (const actor of [admin, member]) {
      await expectIndex({ q: 'moresear' }, FTS(), actor);
      await expectIndex({ q: 'agent 432' }, FTS(), actor);
      // A short word beside a long one is checked on the rows the trigram index found.
      const mixed = await expectIndex({ q: 'ymo c' }, FTS(), actor);
      expect(`${mixed.rows}\n${mixed.count}`).not.toMatch(WORDS());
      await expectIndex({ q: 'zy' }, WORDS(), actor);
      await expectIndex({ q: 'zy', type_id: typeId }, WORDS(), actor);
    }
    await expectIndex({ q: 'oresearc', type_id: typeId }, FTS());
  });

  it('type_id: the (type_id, created_at, id) index', async () => {
    await expectIndex({ type_id: typeId }, /inventory_items_type_page_idx/);
  });

  it('location_id: the location tree by parent, then the instances by location', async () => {
    // The room, its shelf and a box on it: each few instances of many, as the indexes help with.
    for (const location of h.a.migratedLab.locationIds) {
      // Either index of instances by location: since migration 0042 the active one covers the query on SQLite.
      const p = await expectIndex({ location_id: location }, /instances_(active_)?location_idx/);
      expect(p.rows).toMatch(postgres() ? /locations_parent_idx/ : /locations_parent_idx \(lab_id=\? AND parent_id=\?\)/);
      expect(p.rows).toMatch(
        postgres() ? /Index Cond: \(location_id = ANY \(\$\d+\)\)/ : /instances_(active_)?location_idx \(location_id=\?\)/,
      );
      expect(p.rows).not.toMatch(
        postgres() ? /Seq Scan on (locations|inventory_item_instances)/ : /SCAN (locations|inventory_item_instances)\b/,
      );
    }
  });

  it('expiring_before: the soonest-expiry indexes', async () => {
    await expectIndex({ expiring_before: '2026-01-20', lab_id: labId }, /inventory_items_lab_expiry_idx/);
    await expectIndex({ expiring_before: '2026-01-20' }, /inventory_items_(lab_)?expiry_idx/);
  });

  it('below_minimum=true: the partial indexes of the items below their minimum', async () => {
    await expectIndex({ below_minimum: true }, /inventory_items_(lab_)?below_idx/);
    await expectIndex({ below_minimum: true, lab_id: labId }, /inventory_items_lab_below_idx/);
  });

  it('sort: the order comes from the sort index and stops at the page', async () => {
    for (const [sort, index] of [
      // PostgreSQL may walk the order of every lab's index and skip other labs' rows when a lab holds many of
      // them (an eighth here): the order still comes from the index, and the walk stops at the page.
      ['name', /inventory_items_(lab_)?name_idx/],
      ['-name', /inventory_items_(lab_)?name_idx/],
      ['expiration_date', /inventory_items_(lab_)?expiry_idx/],
      ['-updated_at', /inventory_items_(lab_)?updated_idx/],
    ] as const) {
      const p = await plans({ sort, lab_id: labId });
      expect(p.rows, p.rows).toMatch(index);
      // One sort only: of the page's own 25 rows (SQLite), or none below the page's limit (PostgreSQL).
      if (!postgres()) {
        expect(p.rows, p.rows).toMatch(/inventory_items_lab_(name|expiry|updated)_idx/);
        expect(p.rows.match(/TEMP B-TREE/g) ?? [], p.rows).toHaveLength(1);
      } else expect(belowLimit(p.rows), p.rows).not.toMatch(/Sort/);
    }
    for (const [sort, index] of [
      ['name', /inventory_items_name_idx/],
      ['-expiration_date', /inventory_items_expiry_idx/],
      ['updated_at', /inventory_items_updated_idx/],
    ] as const) {
      const p = await plans({ sort });
      expect(p.rows, p.rows).toMatch(index);
    }
  });

  it('q alone (SQLite): the full-text index walked in its rowid order, which is the list order; both statements stop early', async () => {
    if (postgres()) return;
    for (const [query, actor] of [
      [{ q: 'reagent' }, admin],
      [{ q: 'eagen' }, member],
      [{ q: 'reagent', lab_id: labId }, member],
    ] as const) {
      const p = await plans(query, actor);
      // INDEX 64: FTS5 gives the rows in rowid order (the ORDER BY consumed); the one sort is of the page's 25 rows.
      expect(p.rows, p.rows).toMatch(/SCAN inventory_item_search_trigram VIRTUAL TABLE INDEX 64:/);
      expect(p.rows.match(/TEMP B-TREE/g) ?? [], p.rows).toHaveLength(1);
      expect(p.count, p.count).toMatch(FTS());
      expect(p.count, p.count).not.toMatch(/TEMP B-TREE|SCAN inventory_item_search\b/);
    }
  });

  it('many expiring (SQLite, the count at its bound): the page order walked, no sort of every match', async () => {
    if (postgres()) return;
    for (const [query, index] of [
      [{ expiring_before: '2026-06-01' }, /SCAN inventory_items USING INDEX inventory_items_page_idx/],
      [{ expiring_before: '2026-06-01', lab_id: labId }, /SEARCH inventory_items USING INDEX inventory_items_lab_idx \(lab_id=\?\)/],
    ] as const) {
      const p = await plans(query, admin, true);
      expect(p.rows, p.rows).toMatch(index);
      expect(p.rows, p.rows).not.toMatch(/expiry_idx/);
      expect(p.rows.match(/TEMP B-TREE/g) ?? [], p.rows).toHaveLength(1);
    }
  });
});
