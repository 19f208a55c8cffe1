// GET /inventory-items/{id}/history: docs/product.md §5 (per-item history: who changed what, when, old → new).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, adminSummary, dbState, memberSummary } from './_helpers.js';
import { historyFixture } from './_history.js';

const h = useHarness();
const { historyOk, call } = historyFixture(h);

/** Only the parts of an entry that do not depend on time or ids. */
const what = (e: any) => ({
  field: e.field,
  old_value: e.old_value,
  new_value: e.new_value,
  note: e.note,
  instance_id: e.instance_id,
  changed_by: e.changed_by,
});

describe('GET /inventory-items/{id}/history (happy)', () => {
  it('legacy item: every change, oldest first, with who, when, field, old → new and the note', async () => {
    const start = new Date().toISOString();
    const item = await call(h.a.admin.token, 'POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: 'Tracked',
      quantity: '2',
      vendor: 'V',
      catalog_number: 'C-1',
    });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${item.id}`, { name: 'Tracked buffer', lot_number: 'L-9' });
    await call(h.a.member.token, 'PUT', `/inventory-items/${item.id}`, { quantity: '5' });
    await call(h.a.member.token, 'POST', `/inventory-items/${item.id}/adjustments`, { delta: '-1.5', note: 'spilled' });
    // Receiving an order for the same vendor and catalog number adds to the item, and says so.
    const order = await call(h.a.admin.token, 'POST', '/order-requests', {
      lab_id: h.a.legacyLab.id,
      type_id: h.a.legacyLab.typeId,
      name: 'Tracked',
      vendor_name: 'V',
      catalog_number: 'C-1',
      price: { amount: '100', currency: 'USD' },
      quantity: 2,
    });
    await call(h.a.admin.token, 'PUT', `/order-requests/${order.id}`, { status: 'ORDERED' });
    await call(h.a.admin.token, 'POST', `/order-requests/${order.id}/receive`, {});
    const end = new Date().toISOString();

    const entries = await historyOk(item.id);
    const admin = adminSummary(h.a, 'A');
    const member = memberSummary(h.a, 'A');
    const byField = (a: any, b: any) => a.field.localeCompare(b.field);
    // The two fields of one PATCH come first, in either order; then the rest, oldest first.
    expect(entries.slice(0, 2).map(what).sort(byField)).toEqual([
      { field: 'lot_number', old_value: null, new_value: 'L-9', note: null, instance_id: null, changed_by: admin },
      { field: 'name', old_value: 'Tracked', new_value: 'Tracked buffer', note: null, instance_id: null, changed_by: admin },
    ]);
    expect(entries.slice(2).map(what)).toEqual([
      { field: 'quantity', old_value: '2', new_value: '5', note: null, instance_id: null, changed_by: member },
      { field: 'quantity', old_value: '5', new_value: '3.5', note: 'spilled', instance_id: null, changed_by: member },
      {
        field: 'quantity',
        old_value: '3.5',
        new_value: '5.5',
        note: expect.stringContaining(order.id),
        instance_id: null,
        changed_by: admin,
      },
    ]);
    expect(entries[0].changed_at).toBe(entries[1].changed_at);
    for (const e of entries) {
      expect(e.changed_at >= start).toBe(true);
      expect(e.changed_at <= end).toBe(true);
    }
    const times = entries.map((e) => e.changed_at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('migrated item: instance changes name their instance (added, quantity, lot, location, archived)', async () => {
    const item = await call(h.a.admin.token, 'POST', '/inventory-items', {
      lab_id: h.a.migratedLab.id,
      name: 'Tracked vials',
      instances: [{ quantity: '1' }],
    });
    const first = item.instances[0].id;
    const added = await call(h.a.member.token, 'POST', `/inventory-items/${item.id}/instances`, { quantity: '0.5' });
    const second = added.instances[1].id;
    await call(h.a.member.token, 'PUT', `/inventory-items/${item.id}/instances/${first}`, { quantity: '0.75' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${item.id}/instances/${second}`, { lot_number: 'LX' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${item.id}/instances/${second}`, {
      location_id: h.a.migratedLab.locationIds[1],
    });
    await call(h.a.admin.token, 'POST', `/inventory-items/${item.id}/adjustments`, {
      delta: '0.25',
      instance_id: first,
      note: 'found more',
    });
    await call(h.a.member.token, 'POST', `/inventory-items/${item.id}/instances/${second}/archive`, {});

    const admin = adminSummary(h.a, 'A');
    const member = memberSummary(h.a, 'A');
    expect((await historyOk(item.id, h.a.member.token)).map(what)).toEqual([
      { field: 'instance.added', old_value: null, new_value: '0.5', note: null, instance_id: second, changed_by: member },
      { field: 'instance.quantity', old_value: '1', new_value: '0.75', note: null, instance_id: first, changed_by: member },
      { field: 'instance.lot_number', old_value: null, new_value: 'LX', note: null, instance_id: second, changed_by: admin },
      {
        field: 'instance.location_id',
        old_value: null,
        new_value: h.a.migratedLab.locationIds[1],
        note: null,
        instance_id: second,
        changed_by: admin,
      },
      { field: 'instance.quantity', old_value: '0.75', new_value: '1', note: 'found more', instance_id: first, changed_by: admin },
      { field: 'instance.archived', old_value: '0.5', new_value: null, note: null, instance_id: second, changed_by: member },
    ]);
  });

  it('reading the history changes nothing, and changes that changed nothing leave no entry', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Quiet', quantity: '1' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${item.id}`, { name: 'Quiet' });
    await call(h.a.admin.token, 'PUT', `/inventory-items/${item.id}`, { quantity: '1' });
    const state = await dbState(h);
    expect(await historyOk(item.id)).toEqual([]);
    expect(await dbState(h)).toEqual(state);
  });

  it('a failed change leaves no entry (409 below zero, 412 stale If-Match)', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Refused', quantity: '1' });
    expect(
      (await h.call(h.a.admin.token, { method: 'POST', url: `/inventory-items/${item.id}/adjustments`, payload: { delta: '-2' } }))
        .statusCode,
    ).toBe(409);
    expect(
      (
        await h.call(h.a.admin.token, {
          method: 'PATCH',
          url: `/inventory-items/${item.id}`,
          payload: { name: 'X' },
          headers: { 'if-match': '"v99"' },
        })
      ).statusCode,
    ).toBe(412);
    expect(await historyOk(item.id)).toEqual([]);
  });
});
