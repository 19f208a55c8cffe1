// The search index outside the item endpoints (docs/product.md §12): migration 0010 fills it for items that existed
// before it, exactly as the application writes it; a lab migration to instances and receiving an order request
// keep it current in their own transactions.

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runMigration } from '../../../src/lab-migration/service.js';
import { createLab } from '../../../src/labs/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { isPostgres } from '../../../src/shared/db/database.js';
import { up } from '../../../src/shared/db/migrations/0010_inventory_search.js';
import { up as upSubstrings } from '../../../src/shared/db/migrations/0025_substring_search.js';
import { seedBulkLegacyLab } from '../../helpers/lab-migration.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem } from './_helpers.js';
import { listItems, namesFor } from './_search.js';

let token: string;
const h = useHarness({}, async (h) => {
  token = h.a.admin.token;
});

/** What the index holds per item: its sort and filter columns and its document. */
async function indexState() {
  const db = h.deps.db;
  const items = await db
    .selectFrom('inventory_items')
    .select(['id', 'name_key', 'soonest_expiry', 'below_minimum'])
    .orderBy('id')
    .execute();
  const docs = await db.selectFrom('inventory_item_search').select(['item_id', 'document']).orderBy('item_id').execute();
  return { items, docs };
}

/** Takes the database back to where it was before migration 0010 (what `up` adds, and 0025's index of it, dropped). */
async function undo0010() {
  const db = h.deps.db;
  if (!isPostgres(db)) await sql`drop table inventory_item_search_fts`.execute(db);
  if (!isPostgres(db)) await sql`drop table inventory_item_search_trigram`.execute(db);
  await sql`drop table inventory_item_search`.execute(db);
  for (const index of [
    'inventory_items_lab_name_idx',
    'inventory_items_name_idx',
    'inventory_items_lab_expiry_idx',
    'inventory_items_expiry_idx',
    'inventory_items_lab_updated_idx',
    'inventory_items_updated_idx',
    'inventory_items_type_page_idx',
    'inventory_items_lab_below_idx',
    'inventory_items_below_idx',
  ])
    await sql`drop index ${sql.raw(index)}`.execute(db);
  await sql`create index inventory_items_type_idx on inventory_items (type_id)`.execute(db);
  for (const column of ['minimum_quantity', 'below_minimum', 'soonest_expiry', 'name_key'])
    await sql`alter table inventory_items drop column ${sql.raw(column)}`.execute(db);
}

describe('migrations 0010 and 0025', () => {
  it('fill the index of existing items exactly as the application writes it, then searches work, inside words too', async () => {
    const legacy = h.a.legacyLab.id;
    await addItem(h, h.a.admin.actor, {
      labId: legacy,
      name: 'Äthanol (abs.)',
      vendor: 'Merck',
      catalogNumber: '1.00983',
      casNumber: '64-17-5',
      serialNumber: 'SN 1',
      lotNumber: 'K-12',
      expirationDate: '2026-03-01',
      quantity: '1',
    });
    const tris = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Tris base' }, [
      { quantity: '1', lotNumber: 'T-1', expirationDate: '2029-01-01' },
      { quantity: '1', lotNumber: 'T-2', expirationDate: '2027-01-01' },
    ]);
    const archived = await h.call(token, { method: 'POST', url: `/inventory-items/${tris.id}/instances/${tris.instances[1]!.id}/archive` });
    expect(archived.statusCode).toBe(200);
    for (const i of [0, 400, 800])
      await addItem(h, h.a.admin.actor, { labId: legacy, name: `Batch ${i}`, quantity: '1', lotNumber: `B${i}` });
    // More items than one batch of the migration's backfill (500).
    await seedBulkLegacyLab(h.deps.db, h.a.orgId, h.a.admin.id, 1100, 'Bulk before 0010');

    const written = await indexState();
    await undo0010();
    await up(h.deps.db);
    // 0025 indexes the documents that exist for substrings (a trigram index on each database).
    await upSubstrings(h.deps.db);
    const backfilled = await indexState();

    // The bulk items (inserted straight into the table) had no index before: now they have one, like the rest.
    const bulk = new Set(
      (await h.deps.db.selectFrom('inventory_items').select('id').where('name', 'like', 'Bulk item %').execute()).map((r) => r.id),
    );
    expect(bulk.size).toBe(1100);
    const notBulk = <T extends { id?: string; item_id?: string }>(rows: T[]) => rows.filter((r) => !bulk.has((r.id ?? r.item_id)!));
    expect(notBulk(backfilled.items)).toEqual(notBulk(written.items));
    expect(notBulk(backfilled.docs)).toEqual(notBulk(written.docs));
    expect(backfilled.docs).toHaveLength(backfilled.items.length);

    expect(await namesFor(h, token, { q: 'athanol 64-17-5 k12' })).toEqual(['Äthanol (abs.)']);
    expect(await namesFor(h, token, { q: 't-1' })).toEqual(['Tris base']);
    expect(await namesFor(h, token, { q: 't-2' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'bulk item 1099' })).toEqual(['Bulk item 1099']);
    expect(await namesFor(h, token, { q: 'lot-1096' })).toEqual(['Bulk item 1096']);
    expect(await namesFor(h, token, { q: 'thanol 17-5' })).toEqual(['Äthanol (abs.)']);
    expect(await namesFor(h, token, { q: 'ulk item 1098' })).toEqual(['Bulk item 1098']);
    expect(await namesFor(h, token, { expiring_before: '2026-06-01', lab_id: legacy })).toEqual(['Äthanol (abs.)']);
    expect(await namesFor(h, token, { expiring_before: '2028-06-01', lab_id: h.a.migratedLab.id })).toEqual(['Anti-GFP A']);
    const byName = await listItems(h, token, { lab_id: legacy, sort: 'name', per_page: '3' });
    expect(byName.names).toEqual(['Äthanol (abs.)', 'Batch 0', 'Batch 400']);
    expect(byName.total).toBe(5);

    // Writes after it keep the index (the FTS triggers and the columns are back).
    const edited = await h.call(token, {
      method: 'PATCH',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { name: 'Methanol' },
    });
    expect(edited.statusCode).toBe(200);
    expect(await namesFor(h, token, { q: 'methanol' })).toEqual(['Methanol']);
    const minimum = await h.call(token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}/minimum-quantity`,
      payload: { minimum_quantity: '100' },
    });
    expect(minimum.statusCode).toBe(200);
    expect(await namesFor(h, token, { below_minimum: 'true' })).toEqual(['Methanol']);
  }, 60_000);
});

describe('other write paths', () => {
  it('a lab migration keeps every item found by its lot numbers, expiries and minimum, and indexes items that had no entry', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Lab to migrate' });
    const item = await addItem(h, h.a.admin.actor, {
      labId: lab.id,
      name: 'Legacy acetone',
      quantity: '2',
      lotNumber: 'ACE-77',
      expirationDate: '2026-02-02',
      locationName: 'Cabinet',
      sublocationName: 'Top',
    });
    const minimum = await h.call(token, {
      method: 'PUT',
      url: `/inventory-items/${item.id}/minimum-quantity`,
      payload: { minimum_quantity: '3' },
    });
    expect(minimum.json().below_minimum).toBe(true);
    const bulkLab = await seedBulkLegacyLab(h.deps.db, h.a.orgId, h.a.admin.id, 30, 'Bulk lab to migrate');
    expect(await namesFor(h, token, { q: 'lot-21', lab_id: bulkLab })).toEqual([]);

    const before = await indexState();
    const progress = await runMigration(h.deps, systemActor('cli'), lab.id, { batchSize: 1 });
    expect(progress.status).toBe('done');
    expect((await runMigration(h.deps, systemActor('cli'), bulkLab, { batchSize: 7 })).status).toBe('done');
    const after = await indexState();
    const mine = (s: typeof before) => ({
      items: s.items.filter((r) => r.id === item.id),
      docs: s.docs.filter((r) => r.item_id === item.id),
    });
    expect(mine(after)).toEqual(mine(before));

    const migrated = (await h.call(token, { method: 'GET', url: `/inventory-items/${item.id}` })).json();
    expect(migrated.lot_number).toBeNull();
    expect(migrated.instances.map((i: any) => i.lot_number)).toEqual(['ACE-77']);
    expect(await namesFor(h, token, { q: 'ace-77' })).toEqual(['Legacy acetone']);
    expect(await namesFor(h, token, { expiring_before: '2026-03-01', lab_id: lab.id })).toEqual(['Legacy acetone']);
    expect(await namesFor(h, token, { below_minimum: 'true', lab_id: lab.id })).toEqual(['Legacy acetone']);
    const [cabinet] = migrated.instances.map((i: any) => i.location.pathNames);
    expect(cabinet).toEqual(['Cabinet', 'Top']);
    // The bulk items had no index entry: the migration wrote one for each item it converted.
    expect(await namesFor(h, token, { q: 'lot-21', lab_id: bulkLab })).toEqual(['Bulk item 21']);
  });

  it('receiving an order request indexes the item it creates or fills, in its transaction', async () => {
    const lab = { id: h.a.legacyLab.id, typeId: h.a.legacyLab.typeId };
    const order = await createOrder(h, token, orderBody(lab, { name: 'Received glycine', vendor_name: 'Fluka', catalog_number: 'G-7126' }));
    for (const status of ['ORDERED', 'RECEIVED']) {
      const res = await h.call(token, { method: 'PUT', url: `/order-requests/${order.id}`, payload: { status } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await namesFor(h, token, { q: 'glycine fluka g7126' })).toEqual(['Received glycine']);
    const [item] = await h.deps.db.selectFrom('inventory_items').select('id').where('name', '=', 'Received glycine').execute();
    const minimum = await h.call(token, {
      method: 'PUT',
      url: `/inventory-items/${item!.id}/minimum-quantity`,
      payload: { minimum_quantity: '3' },
    });
    expect(minimum.json()).toMatchObject({ quantity: '2', below_minimum: true });
    const again = await createOrder(h, token, orderBody(lab, { name: 'More glycine', vendor_name: 'Fluka', catalog_number: 'G-7126' }));
    for (const status of ['ORDERED', 'RECEIVED'])
      await h.call(token, { method: 'PUT', url: `/order-requests/${again.id}`, payload: { status } });
    expect(await namesFor(h, token, { below_minimum: 'true', q: 'glycine' })).toEqual([]);
  });
});
