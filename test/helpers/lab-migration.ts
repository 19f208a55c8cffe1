// Shared by the lab migration tests (API and CLI): legacy labs seeded fast, waiting for a migration, and the
// checks every finished migration must pass. No tests here.

import { expect } from 'vitest';
import { createLab } from '../../src/labs/service.js';
import type { Db } from '../../src/shared/db/database.js';
import type { InventoryItemsTable } from '../../src/shared/db/schema.js';
import { newId } from '../../src/shared/ids.js';
import { orgAdminActor } from './fixtures.js';
import type { Harness } from './harness.js';

export const UPDATED = 'com.labstock.inventory-item.updated';

/** Polls GET /labs/{id}/migration until the migration is done; returns the last progress body. */
export async function waitForMigration(h: Harness, token: string, labId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  for (;;) {
    const res = await h.call(token, { method: 'GET', url: `/labs/${labId}/migration` });
    expect(res.statusCode, res.body).toBe(200);
    last = res.json();
    if (last.status === 'done') return last;
    if (Date.now() > deadline) throw new Error(`migration of ${labId} not done after ${timeoutMs} ms: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The legacy values of bulk item `i`: a mix of every case (nothing at all, lot only, two-level location, location
 * only, expiry only) with a few location names repeated across items, so locations are shared.
 */
export function bulkLegacy(
  i: number,
): Pick<InventoryItemsTable, 'quantity' | 'lot_number' | 'expiration_date' | 'location_name' | 'sublocation_name'> {
  switch (i % 5) {
    case 0:
      return { quantity: '0', lot_number: null, expiration_date: null, location_name: null, sublocation_name: null };
    case 1:
      return { quantity: '3', lot_number: `LOT-${i}`, expiration_date: null, location_name: null, sublocation_name: null };
    case 2:
      return {
        quantity: '1.5',
        lot_number: null,
        expiration_date: null,
        location_name: `Room ${i % 7}`,
        sublocation_name: `Shelf ${i % 3}`,
      };
    case 3:
      return { quantity: `${i % 11}`, lot_number: null, expiration_date: null, location_name: `Room ${i % 7}`, sublocation_name: null };
    default:
      return { quantity: '2', lot_number: null, expiration_date: '2027-12-31', location_name: null, sublocation_name: null };
  }
}

/** Which bulk items change, and which get an instance (item 3 of each five with quantity 0 and a location still does). */
export const bulkChanges = (i: number): boolean => i % 5 !== 0;

/**
 * A legacy lab of `n` items inserted in bulk (1,000 rows a statement, one transaction), many sharing a created_at so
 * the migration's (created_at, id) cursor meets ties. Returns the lab id.
 */
export async function seedBulkLegacyLab(db: Db, orgId: string, userId: string, n: number, name = 'Bulk legacy lab'): Promise<string> {
  const lab = await createLab(db, orgAdminActor(orgId, userId), { organizationId: orgId, name });
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  await db.transaction().execute(async (trx) => {
    const CHUNK = 1000;
    for (let start = 0; start < n; start += CHUNK) {
      const rows: InventoryItemsTable[] = [];
      for (let i = start; i < Math.min(n, start + CHUNK); i++) {
        // 250 items per timestamp: ties across batch boundaries.
        const at = new Date(base + Math.floor(i / 250) * 1000).toISOString();
        rows.push({
          id: newId(),
          lab_id: lab.id,
          type_id: null,
          name: `Bulk item ${i}`,
          vendor: null,
          catalog_number: `CAT-${i}`,
          price: null,
          unit_size: null,
          url: null,
          technical_details: null,
          auto_reminder: null,
          cas_number: null,
          vendor_product_id: null,
          serial_number: null,
          ...bulkLegacy(i),
          added_by: userId,
          updated_by: userId,
          version: 1,
          created_at: at,
          updated_at: at,
        });
      }
      await trx.insertInto('inventory_items').values(rows).execute();
    }
  });
  return lab.id;
}

const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: string | number }> }) => Number((await q.executeTakeFirstOrThrow()).n);

/**
 * Whole-lab invariants of a finished bulk migration, checked in SQL (fast on 100,000 items): the lab uses
 * instances; every item row has the converted shape; each item that held something has exactly one instance with
 * its values; exactly one inventory-item.updated per changed item; the location tree has one node per distinct name.
 */
export async function expectBulkMigrated(db: Db, labId: string, n: number): Promise<void> {
  const lab = await db.selectFrom('labs').selectAll().where('id', '=', labId).executeTakeFirstOrThrow();
  expect(lab.uses_instances).toBe(1);
  expect(lab.migration_items_total).toBe(n);
  expect(lab.migration_items_done).toBe(n);
  const changed = Array.from({ length: n }, (_, i) => i).filter(bulkChanges).length;

  const items = db.selectFrom('inventory_items').where('lab_id', '=', labId);
  expect(await count(items.select((eb) => eb.fn.countAll<string | number>().as('n')))).toBe(n);
  expect(
    await count(
      items
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where((eb) =>
          eb.or([
            eb('quantity', '<>', '0'),
            eb('lot_number', 'is not', null),
            eb('expiration_date', 'is not', null),
            eb('location_name', 'is not', null),
            eb('sublocation_name', 'is not', null),
          ]),
        ),
    ),
  ).toBe(0);
  expect(await count(items.select((eb) => eb.fn.countAll<string | number>().as('n')).where('version', '=', 2))).toBe(changed);
  expect(await count(items.select((eb) => eb.fn.countAll<string | number>().as('n')).where('version', '=', 1))).toBe(n - changed);

  const instances = db
    .selectFrom('inventory_item_instances')
    .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
    .where('inventory_items.lab_id', '=', labId);
  expect(await count(instances.select((eb) => eb.fn.countAll<string | number>().as('n')))).toBe(changed);
  expect(await count(instances.select((eb) => eb.fn.count<string | number>('inventory_item_instances.item_id').distinct().as('n')))).toBe(
    changed,
  );

  // Every instance carries its item's legacy values (the item name encodes i).
  const rows = await instances
    .leftJoin('locations', 'locations.id', 'inventory_item_instances.location_id')
    .leftJoin('locations as parent', 'parent.id', 'locations.parent_id')
    .select([
      'inventory_items.name',
      'inventory_item_instances.quantity',
      'inventory_item_instances.lot_number',
      'inventory_item_instances.expiration_date',
      'locations.name as leaf',
      'parent.name as root',
      'inventory_item_instances.archived_at',
    ])
    .execute();
  let wrong = 0;
  for (const r of rows) {
    const i = Number(r.name.slice('Bulk item '.length));
    const legacy = bulkLegacy(i);
    const path = [legacy.location_name, legacy.sublocation_name].filter((x) => x !== null);
    const got = [r.root, r.leaf].filter((x) => x !== null);
    if (
      r.quantity !== legacy.quantity ||
      r.lot_number !== legacy.lot_number ||
      r.expiration_date !== legacy.expiration_date ||
      JSON.stringify(got) !== JSON.stringify(path) ||
      r.archived_at !== null
    )
      wrong++;
  }
  expect(wrong, "instances whose values differ from their item's legacy values").toBe(0);

  // Locations: Room 0..6 at the root, Shelf 0..2 under each room that has a two-level item.
  const locations = await db.selectFrom('locations').select(['id', 'parent_id', 'name']).where('lab_id', '=', labId).execute();
  const rootsSeen = new Set<string>();
  const childrenSeen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const l = bulkLegacy(i);
    if (l.location_name) rootsSeen.add(l.location_name);
    if (l.location_name && l.sublocation_name) childrenSeen.add(`${l.location_name}/${l.sublocation_name}`);
  }
  const byId = new Map(locations.map((l) => [l.id, l]));
  expect(
    locations
      .filter((l) => l.parent_id === null)
      .map((l) => l.name)
      .sort(),
  ).toEqual([...rootsSeen].sort());
  expect(
    locations
      .filter((l) => l.parent_id !== null)
      .map((l) => `${byId.get(l.parent_id!)!.name}/${l.name}`)
      .sort(),
  ).toEqual([...childrenSeen].sort());

  // One event per changed item, none for the others: counted in SQL, then the ids read from the payloads in pages.
  const events = db.selectFrom('events').where('lab_id', '=', labId).where('type', '=', UPDATED);
  expect(await count(events.select((eb) => eb.fn.countAll<string | number>().as('n')))).toBe(changed);
  const seen = new Set<string>();
  let after = '';
  for (;;) {
    const page = await events.select(['id', 'payload']).where('id', '>', after).orderBy('id').limit(5000).execute();
    if (page.length === 0) break;
    for (const e of page) {
      const item = JSON.parse(e.payload).data.inventory_item;
      expect(item.lab.uses_instances).toBe(true);
      expect(item.instances).toHaveLength(1);
      seen.add(item.id);
    }
    after = page.at(-1)!.id;
  }
  expect(seen.size).toBe(changed);
}
