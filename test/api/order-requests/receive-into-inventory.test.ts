import { Decimal } from 'decimal.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../../src/inventory/items.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import {
  counts,
  createOrder,
  expectEnvelope,
  failWritesWhen,
  historyRows,
  itemEvents,
  itemsWith,
  moveThrough,
  orderBody,
  orderEvents,
  orderRow,
  putStatus,
  UUID_RE,
  userOf,
} from './_helpers.js';

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

const getItem = async (id: string, token = h.a.admin.token): Promise<any> => {
  const res = await h.call(token, { method: 'GET', url: `/inventory-items/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Creates a request and walks it to RECEIVED; returns the final response body. */
async function receive(
  lab: { id: string; typeId: string },
  vendor: string,
  catalog: string,
  quantity: number,
  token = h.a.admin.token,
): Promise<any> {
  const o = await createOrder(
    h,
    token,
    orderBody(lab, { vendor_name: vendor, catalog_number: catalog, quantity, name: `${vendor} ${catalog}` }),
  );
  return moveThrough(h, token, o.id, ['ORDERED', 'RECEIVED']);
}

describe('RECEIVED in a legacy lab', () => {
  it('adds the ordered quantity to the item with the same vendor and catalog number ("3" + 2 = "5")', async () => {
    const before = await getItem(h.a.legacyLab.itemId);
    expect(before.quantity).toBe('3');
    const updatedBefore = (await itemEvents(h, 'updated', h.a.legacyLab.itemId)).length;
    const countsBefore = await counts(h);

    const received = await receive(h.a.legacyLab, 'Sigma', 'E7023', 2);
    expect(received.status).toBe('RECEIVED');

    const after = await getItem(h.a.legacyLab.itemId);
    expect(after.quantity).toBe('5');
    expect(after.instances).toEqual([]);
    // Only the quantity (and who/when) moved; legacy fields stay on the item.
    expect(after).toMatchObject({
      lot_number: 'LOT-1',
      expiration_date: '2027-01-31',
      location: { name: 'Cabinet 1' },
      sublocation: { name: 'Shelf A' },
    });
    expect((await counts(h)).items).toBe(countsBefore.items);
    expect(await itemsWith(h, h.a.legacyLab.id, 'Sigma', 'E7023')).toHaveLength(1);

    const updated = await itemEvents(h, 'updated', h.a.legacyLab.itemId);
    expect(updated).toHaveLength(updatedBefore + 1);
    const e = updated[updated.length - 1]!;
    expectEnvelope(e, 'com.labstock.inventory-item.updated', 'inventory_item');
    expect(e.event.data.inventory_item).toEqual(after);
    expect(e.event.data.inventory_item.lab.uses_instances).toBe(false);
    expect(e.row.lab_id).toBe(h.a.legacyLab.id);
    expect(await orderEvents(h, 'received', received.id)).toHaveLength(1);
  });

  it('adds with exact decimal arithmetic ("0.1" + 2 = "2.1", then + 1 = "3.1")', async () => {
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '0.1' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await receive(h.a.legacyLab, 'Sigma', 'E7023', 2);
    expect((await getItem(h.a.legacyLab.itemId)).quantity).toBe('2.1');
    await receive(h.a.legacyLab, 'Sigma', 'E7023', 1, h.a.member.token);
    const item = await getItem(h.a.legacyLab.itemId);
    expect(item.quantity).toBe('3.1');
    expect(item.updated_by).toEqual(await userOf(h, h.a.member.token));
  });

  it('creates a new item when no item has that vendor and catalog number (quantity on the item, instances [])', async () => {
    const admin = await userOf(h, h.a.admin.token);
    const countsBefore = await counts(h);
    const received = await receive(h.a.legacyLab, 'Thermo', 'TH-100', 2);
    const rows = await itemsWith(h, h.a.legacyLab.id, 'Thermo', 'TH-100');
    expect(rows).toHaveLength(1);
    expect((await counts(h)).items).toBe(countsBefore.items + 1);

    const item = await getItem(rows[0]!.id);
    expect(item).toMatchObject({
      name: 'Thermo TH-100',
      vendor: 'Thermo',
      catalog_number: 'TH-100',
      quantity: '2',
      instances: [],
      lab: { id: h.a.legacyLab.id, uses_instances: false },
      type: { id: h.a.legacyLab.typeId, name: 'Reagent' },
    });
    expect(item.id).toMatch(UUID_RE);
    expect(item.added_by).toEqual(admin);

    const created = await itemEvents(h, 'created', item.id);
    expect(created).toHaveLength(1);
    expectEnvelope(created[0]!, 'com.labstock.inventory-item.created', 'inventory_item');
    expect(created[0]!.event.data.inventory_item).toEqual(item);
    expect(created[0]!.event.data.inventory_item.instances).toEqual([]);
    expect(await orderEvents(h, 'received', received.id)).toHaveLength(1);
  });

  it('matches vendor and catalog number within the lab only', async () => {
    // Sigma/E7023 exists in the legacy lab, not in the migrated one: receiving there makes a new item there.
    const legacyBefore = await getItem(h.a.legacyLab.itemId);
    await receive(h.a.migratedLab, 'Sigma', 'E7023', 4);
    expect((await getItem(h.a.legacyLab.itemId)).quantity).toBe(legacyBefore.quantity);
    const rows = await itemsWith(h, h.a.migratedLab.id, 'Sigma', 'E7023');
    expect(rows).toHaveLength(1);
    const item = await getItem(rows[0]!.id);
    expect(item.quantity).toBe('4');
    expect(item.instances).toHaveLength(1);
    // Nor across organizations: org B's Sigma item is untouched.
    expect((await getItem(h.b.legacyLab.itemId, h.b.admin.token)).quantity).toBe('3');
  });
});

describe('RECEIVED in a migrated lab', () => {
  it('adds a new instance to the item with the same vendor and catalog number ("0.1" + "0.2" + 2 = "2.3")', async () => {
    const before = await getItem(h.a.migratedLab.itemId);
    expect(before.quantity).toBe('0.3');
    expect(before.instances).toHaveLength(2);
    const updatedBefore = (await itemEvents(h, 'updated', h.a.migratedLab.itemId)).length;
    const countsBefore = await counts(h);

    await receive(h.a.migratedLab, 'Abcam', 'ab290', 2);

    const after = await getItem(h.a.migratedLab.itemId);
    expect(after.quantity).toBe('2.3');
    expect(after.instances).toHaveLength(3);
    const oldIds = new Set(h.a.migratedLab.instanceIds);
    for (const id of h.a.migratedLab.instanceIds) expect(after.instances.map((i: any) => i.id)).toContain(id);
    const added = after.instances.filter((i: any) => !oldIds.has(i.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toEqual({
      id: expect.stringMatching(UUID_RE),
      quantity: '2',
      lot_number: null,
      expiration_date: null,
      location: null,
    });
    // The existing instances are untouched.
    expect(after.instances.filter((i: any) => oldIds.has(i.id))).toEqual(before.instances);
    // Parent legacy fields stay empty in migrated labs.
    expect(after).toMatchObject({ lot_number: null, expiration_date: null, location: null, sublocation: null });
    expect((await counts(h)).items).toBe(countsBefore.items);

    const updated = await itemEvents(h, 'updated', h.a.migratedLab.itemId);
    expect(updated).toHaveLength(updatedBefore + 1);
    const e = updated[updated.length - 1]!;
    expectEnvelope(e, 'com.labstock.inventory-item.updated', 'inventory_item');
    expect(e.event.data.inventory_item).toEqual(after);
    expect(e.event.data.inventory_item.lab.uses_instances).toBe(true);
  });

  it('a second delivery adds another instance ("2.3" + 1 = "3.3")', async () => {
    await receive(h.a.migratedLab, 'Abcam', 'ab290', 1, h.a.member.token);
    const after = await getItem(h.a.migratedLab.itemId);
    expect(after.quantity).toBe('3.3');
    expect(after.instances).toHaveLength(4);
    expect(after.instances.map((i: any) => i.quantity).sort()).toEqual(['0.1', '0.2', '1', '2']);
  });

  it('creates a new item with one instance when nothing matches', async () => {
    const received = await receive(h.a.migratedLab, 'BioLegend', 'BL-7', 2);
    const rows = await itemsWith(h, h.a.migratedLab.id, 'BioLegend', 'BL-7');
    expect(rows).toHaveLength(1);
    const item = await getItem(rows[0]!.id);
    expect(item).toMatchObject({
      name: 'BioLegend BL-7',
      vendor: 'BioLegend',
      catalog_number: 'BL-7',
      quantity: '2',
      lab: { id: h.a.migratedLab.id, uses_instances: true },
      type: { id: h.a.migratedLab.typeId, name: 'Antibody' },
      lot_number: null,
      expiration_date: null,
      location: null,
      sublocation: null,
    });
    expect(item.instances).toHaveLength(1);
    expect(item.instances[0]).toMatchObject({ quantity: '2', lot_number: null, expiration_date: null, location: null });

    const created = await itemEvents(h, 'created', item.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.event.data.inventory_item).toEqual(item);
    expect(created[0]!.event.data.inventory_item.instances).toHaveLength(1);
    expect(await orderEvents(h, 'received', received.id)).toHaveLength(1);
  });
});

describe('receiving happens only on entering RECEIVED', () => {
  it('no inventory change for ORDERED, BACKORDERED, CANCELLED or a repeated RECEIVED', async () => {
    const o = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, { vendor_name: 'Sigma', catalog_number: 'E7023', quantity: 7 }),
    );
    const q0 = (await getItem(h.a.legacyLab.itemId)).quantity;
    await moveThrough(h, h.a.admin.token, o.id, ['APPROVED', 'ORDERED', 'BACKORDERED']);
    expect((await getItem(h.a.legacyLab.itemId)).quantity).toBe(q0);
    await moveThrough(h, h.a.admin.token, o.id, ['RECEIVED']);
    const q1 = (await getItem(h.a.legacyLab.itemId)).quantity;
    expect(q1).toBe(new Decimal(q0).plus(7).toFixed());
    const same = await putStatus(h, h.a.admin.token, o.id, 'RECEIVED');
    expect(same.statusCode).toBe(200);
    expect((await getItem(h.a.legacyLab.itemId)).quantity).toBe(q1);

    const c = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, { vendor_name: 'Sigma', catalog_number: 'E7023', quantity: 9 }),
    );
    await moveThrough(h, h.a.admin.token, c.id, ['ORDERED', 'CANCELLED']);
    expect((await getItem(h.a.legacyLab.itemId)).quantity).toBe(q1);
  });
});

describe('receiving is one transaction with the status change', () => {
  // Real database triggers make the inventory write fail, to show that the status change, history row and
  // events are rolled back with it (no mocks: the failure happens inside the database).
  beforeAll(async () => {
    await failWritesWhen(h, 'test_fail_insert', 'inventory_items', 'INSERT', "NEW.vendor = 'Explodo'");
    // A change to the item (its version moves), not the write of a new item's stored document (src/inventory/stored/).
    await failWritesWhen(h, 'test_fail_update', 'inventory_items', 'UPDATE', "NEW.vendor = 'Boom' AND NEW.version <> OLD.version");
    await failWritesWhen(
      h,
      'test_fail_received',
      'events',
      'INSERT',
      "NEW.type = 'com.labstock.order-request.received' AND NEW.payload LIKE '%Kaboom%'",
    );
  });

  async function expectRolledBack(orderId: string, fn: () => Promise<void>): Promise<void> {
    const before = await counts(h);
    const row = await orderRow(h, orderId);
    const history = await historyRows(h, orderId);
    const instances = await h.deps.db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute();
    await fn();
    expect(await counts(h)).toEqual(before);
    expect(await orderRow(h, orderId)).toEqual(row);
    expect(await historyRows(h, orderId)).toEqual(history);
    expect(await h.deps.db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute()).toEqual(instances);
    expect(await orderEvents(h, 'received', orderId)).toHaveLength(0);
  }

  it('a failure creating the new item leaves the request ORDERED with no history row and no event', async () => {
    const o = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab, { vendor_name: 'Explodo', catalog_number: 'X-1' }));
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    await expectRolledBack(o.id, async () => {
      const res = await putStatus(h, h.a.admin.token, o.id, 'RECEIVED');
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe('internal_error');
      expect(res.body).not.toContain('injected failure');
    });
    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${o.id}` });
    expect(got.json().status).toBe('ORDERED');
    expect(await itemsWith(h, h.a.legacyLab.id, 'Explodo', 'X-1')).toHaveLength(0);
  });

  it('a failure updating the existing item (migrated lab) also rolls back the new instance', async () => {
    await receive(h.a.migratedLab, 'Boom', 'B-1', 1); // creates the item (insert is allowed)
    const [itemRow] = await itemsWith(h, h.a.migratedLab.id, 'Boom', 'B-1');
    expect(itemRow).toBeDefined();
    const itemBefore = await getItem(itemRow!.id);
    expect(itemBefore.quantity).toBe('1');

    const o = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.migratedLab, { vendor_name: 'Boom', catalog_number: 'B-1', quantity: 3 }),
    );
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    await expectRolledBack(o.id, async () => {
      const res = await putStatus(h, h.a.admin.token, o.id, 'RECEIVED');
      expect(res.statusCode).toBe(500);
    });
    expect(await getItem(itemRow!.id)).toEqual(itemBefore);
  });

  it('a failure writing the received event rolls back the inventory change', async () => {
    const item = await createItem(h.deps, h.a.admin.actor, {
      labId: h.a.legacyLab.id,
      name: 'Kaboom powder',
      vendor: 'Kaboom',
      catalogNumber: 'K-1',
      quantity: '4',
    });
    const updatedBefore = (await itemEvents(h, 'updated', item.id)).length;
    const o = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, { vendor_name: 'Kaboom', catalog_number: 'K-1', quantity: 2 }),
    );
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    await expectRolledBack(o.id, async () => {
      const res = await putStatus(h, h.a.admin.token, o.id, 'RECEIVED');
      expect(res.statusCode).toBe(500);
    });
    expect((await getItem(item.id)).quantity).toBe('4');
    expect(await itemEvents(h, 'updated', item.id)).toHaveLength(updatedBefore);
  });
});

describe('concurrent RECEIVED', () => {
  it('several simultaneous PUT RECEIVED add the goods exactly once', async () => {
    const item = await createItem(h.deps, h.a.admin.actor, {
      labId: h.a.legacyLab.id,
      name: 'Race',
      vendor: 'Racer',
      catalogNumber: 'R-1',
      quantity: '1.5',
    });
    const o = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.legacyLab, { vendor_name: 'Racer', catalog_number: 'R-1', quantity: 10 }),
    );
    await moveThrough(h, h.a.admin.token, o.id, ['ORDERED']);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => putStatus(h, i % 2 ? h.a.member.token : h.a.admin.token, o.id, 'RECEIVED')),
    );
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect((await getItem(item.id)).quantity).toBe('11.5');
    expect(await orderEvents(h, 'received', o.id)).toHaveLength(1);
    expect((await historyRows(h, o.id)).filter((r) => r.type === 'RECEIVED')).toHaveLength(1);
  });
});
