// Stored item documents (issue 15, docs/decisions/0015-stored-item-documents.md): after every operation that changes
// an item, or anything an item shows (its lab, type, locations, the people who added and changed it), each item's
// stored document is byte for byte what rendering it afresh gives, and GET serves exactly that text.

import { describe, expect, it } from 'vitest';
import { rebuildDocuments } from '../../../src/inventory/stored/rebuild.js';
import { systemActor } from '../../../src/shared/actor.js';
import { waitForMigration } from '../../helpers/lab-migration.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { expectDocumentsFresh } from '../../helpers/stored-documents.js';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv } from '../inventory-csv/_helpers.js';

let token: string;
const h = useHarness({}, async (h) => {
  token = h.a.admin.token;
});

async function call(method: string, url: string, payload?: unknown, expected = 200) {
  const res = await h.call(token, { method: method as never, url, ...(payload === undefined ? {} : { payload: payload as never }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(expected);
  return res;
}

/** After `what`, every item's document is fresh; GET of `itemId` (if any) serves the stored text itself. */
async function afterIt(what: string, itemId?: string) {
  const n = await expectDocumentsFresh(h);
  expect(n, what).toBeGreaterThan(0);
  if (itemId) {
    const got = await call('GET', `/inventory-items/${itemId}`);
    const stored = await h.deps.db.selectFrom('inventory_items').select('rendered').where('id', '=', itemId).executeTakeFirstOrThrow();
    expect(got.body, what).toBe(stored.rendered);
  }
}

describe('the stored document equals a fresh render after every change', () => {
  it('the fixtures (made through the services) start with fresh documents', async () => {
    await afterIt('fixtures', h.a.migratedLab.itemId);
  });

  it('item endpoints: create, edit, quantities, instances, adjustments, minimum, delete', async () => {
    const legacy = (await call('POST', '/inventory-items', { lab_id: h.a.legacyLab.id, name: 'Doc acetone', quantity: '2' }, 201)).json();
    await afterIt('create legacy', legacy.id);
    const migrated = (
      await call(
        'POST',
        '/inventory-items',
        { lab_id: h.a.migratedLab.id, name: 'Doc tris', instances: [{ quantity: '1', location_id: h.a.migratedLab.locationIds[2] }] },
        201,
      )
    ).json();
    await afterIt('create migrated', migrated.id);
    await call('PATCH', `/inventory-items/${legacy.id}`, { name: 'Doc acetone 2', type_id: h.a.legacyLab.typeId, vendor: 'Merck' });
    await afterIt('edit', legacy.id);
    await call('PUT', `/inventory-items/${legacy.id}`, { quantity: '7' });
    await afterIt('PUT item quantity', legacy.id);
    const added = (await call('POST', `/inventory-items/${migrated.id}/instances`, { quantity: '3', lot_number: 'L-9' }, 201)).json();
    await afterIt('add instance', migrated.id);
    const second = added.instances.find((i: { lot_number: string | null }) => i.lot_number === 'L-9');
    await call('PUT', `/inventory-items/${migrated.id}/instances/${second.id}`, { quantity: '4.5' });
    await afterIt('PUT instance quantity', migrated.id);
    await call('PATCH', `/inventory-items/${migrated.id}/instances/${second.id}`, {
      expiration_date: '2027-02-03',
      location_id: h.a.migratedLab.locationIds[1],
    });
    await afterIt('edit instance', migrated.id);
    await call('POST', `/inventory-items/${migrated.id}/adjustments`, { delta: '-1', instance_id: second.id });
    await call('POST', `/inventory-items/${legacy.id}/adjustments`, { delta: '2.5', note: 'found more' });
    await afterIt('adjustments', legacy.id);
    await call('PUT', `/inventory-items/${legacy.id}/minimum-quantity`, { minimum_quantity: '100' });
    await afterIt('minimum', legacy.id);
    await call('POST', `/inventory-items/${migrated.id}/instances/${second.id}/archive`);
    await afterIt('archive instance', migrated.id);
    await call('DELETE', `/inventory-items/${legacy.id}`, undefined, 204);
    await afterIt('delete');
  });

  it('CSV import and receiving an order request', async () => {
    const csv = 'name,quantity,lot_number,location\nDoc imported,2,I-1,Room 9 / Shelf 1\nDoc imported 2,1,,\n';
    const res = await importCsv(h, token, h.a.migratedLab.id, csv);
    expect(res.statusCode, res.body).toBe(200);
    await afterIt('CSV import');
    const lab = { id: h.a.legacyLab.id, typeId: h.a.legacyLab.typeId };
    const order = await createOrder(h, token, orderBody(lab, { name: 'Doc glycine', vendor_name: 'Fluka', catalog_number: 'G-1' }));
    for (const status of ['ORDERED', 'RECEIVED']) await call('PUT', `/order-requests/${order.id}`, { status });
    await afterIt('receive (new item)');
    const again = await createOrder(h, token, orderBody(lab, { name: 'Doc glycine', vendor_name: 'Fluka', catalog_number: 'G-1' }));
    for (const status of ['ORDERED', 'RECEIVED']) await call('PUT', `/order-requests/${again.id}`, { status });
    await afterIt('receive (into the same item)');
  });

  it('names shown by items: a location renamed or moved, a lab renamed, a type renamed, a person renamed', async () => {
    const [room, , shelf] = h.a.migratedLab.locationIds;
    await call('PATCH', `/locations/${shelf}`, { name: 'Shelf renamed' });
    await afterIt('location renamed', h.a.migratedLab.itemId);
    await call('PATCH', `/locations/${shelf}`, { parent_id: room });
    await afterIt('location moved', h.a.migratedLab.itemId);
    await call('PUT', `/organization/labs/${h.a.migratedLab.id}`, { name: 'Renamed migrated lab' });
    await afterIt('lab renamed', h.a.migratedLab.itemId);
    expect((await call('GET', `/inventory-items/${h.a.migratedLab.itemId}`)).json().lab.name).toBe('Renamed migrated lab');
    await call('PUT', `/types/${h.a.migratedLab.typeId}`, { name: 'Renamed type' });
    await afterIt('type renamed', h.a.migratedLab.itemId);
    await call('PUT', '/user', { first_name: 'Renamed', last_name: 'Admin' });
    await afterIt('person renamed', h.a.migratedLab.itemId);
    expect((await call('GET', `/inventory-items/${h.a.migratedLab.itemId}`)).json().added_by.first_name).toBe('Renamed');
  });

  it('a lab migration: converted items, and every item of the lab when it flips', async () => {
    const lab = (await call('POST', '/organization/labs', { name: 'Doc lab to migrate', uses_instances: false }, 201)).json();
    const kept = (
      await call('POST', '/inventory-items', { lab_id: lab.id, name: 'Doc kept', quantity: '2', lot_number: 'K-1' }, 201)
    ).json();
    await call('POST', '/inventory-items', { lab_id: lab.id, name: 'Doc empty', quantity: '0' }, 201);
    await call('POST', `/labs/${lab.id}/migrate-to-instances`, undefined, 202);
    await waitForMigration(h, token, lab.id);
    await afterIt('lab migrated', kept.id);
  });
});

describe('items without a document (written by an older version, or loaded in bulk)', () => {
  it('are rendered when read, and the rebuild writes exactly the fresh documents', async () => {
    const itemId = h.a.legacyLab.itemId;
    const expected = (await call('GET', `/inventory-items/${itemId}`)).body;
    await h.deps.db.updateTable('inventory_items').set({ rendered: null }).execute();
    expect((await call('GET', `/inventory-items/${itemId}`)).body).toBe(expected);
    const page = await call('GET', `/inventory-items?lab_id=${h.a.legacyLab.id}`);
    expect(page.json().length).toBeGreaterThan(0);
    const result = await rebuildDocuments(h.deps.db, systemActor('cli'), h.config.appUrl);
    expect(result.written).toBe(result.total);
    expect(result.written).toBeGreaterThan(0);
    await afterIt('rebuilt', itemId);
    expect((await call('GET', `/inventory-items?lab_id=${h.a.legacyLab.id}`)).body).toBe(page.body);
  });

  it('a rebuild for another APP_URL writes every document again with it', async () => {
    const other = 'https://labstock.example.org';
    await rebuildDocuments(h.deps.db, systemActor('cli'), other);
    const row = await h.deps.db.selectFrom('inventory_items').select('rendered').limit(1).executeTakeFirstOrThrow();
    expect(JSON.parse(row.rendered!).app_url.startsWith(`${other}/app/inventory/items/`)).toBe(true);
    await rebuildDocuments(h.deps.db, systemActor('cli'), h.config.appUrl, { all: true });
    await afterIt('rebuilt back', h.a.legacyLab.itemId);
  });
});
