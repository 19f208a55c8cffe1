// PATCH /inventory-items/{itemId}/instances/{itemInstanceId}: docs/product.md §5 (edit an instance of a migrated lab's item).
// Every change: the full item back, a new ETag, history, and one inventory-item.updated (§7).

import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectItemShape, getItemJson } from './_helpers.js';

const h = useHarness();

const instUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;
const edit = (token: string | null, itemId: string, instanceId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'PATCH', url: instUrl(itemId, instanceId), payload: payload as any, headers });

async function unchanged(token: string | null, opts: InjectOptions) {
  const before = await dbState(h);
  const res = await h.call(token, opts);
  expect(await dbState(h)).toEqual(before);
  return res;
}

const changesOf = (itemId: string) =>
  h.deps.db.selectFrom('inventory_item_changes').selectAll().where('item_id', '=', itemId).orderBy('created_at').orderBy('id').execute();

/** A migrated item with instances "1.25" (at Shelf 2, lot A) and "0.75". */
async function migratedItem(name = 'Vials') {
  const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name }, [
    { quantity: '1.25', lotNumber: 'A', expirationDate: '2027-03-01', locationId: h.a.migratedLab.locationIds[2] },
    { quantity: '0.75' },
  ]);
  return { id: item.id, instanceIds: item.instances.map((i) => i.id) };
}

/** Runs a change and checks: status, full item = GET, new ETag = GET's, exactly one inventory-item.updated = body. */
async function expectChange(send: () => Promise<any>, itemId: string, status: number): Promise<any> {
  const before = await getItemJson(h, h.a.admin.token, itemId);
  const eventsBefore = (await dbState(h)).events;
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expectItemShape(body);
  expect(body.id).toBe(itemId);
  const after = await getItemJson(h, h.a.admin.token, itemId);
  expect(after.body).toEqual(body);
  expect(res.headers.etag).toBe(after.etag);
  expect(after.etag).not.toBe(before.etag);
  const events = await eventsAfter(h, eventsBefore);
  expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.updated']);
  expect(events[0]!.event.data).toEqual({ inventory_item: body });
  expect(events[0]!.lab_id).toBe(h.a.migratedLab.id);
  return body;
}

describe('PATCH /inventory-items/{itemId}/instances/{itemInstanceId} (happy)', () => {
  it('edit: quantity, lot, expiry and location change; one history row per field; the sum follows', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(
      () =>
        edit(h.a.admin.token, item.id, second, {
          quantity: '0.05',
          lot_number: 'Z',
          expiration_date: '2029-09-09',
          location_id: h.a.migratedLab.locationIds[0],
        }),
      item.id,
      200,
    );
    expect(body.quantity).toBe('1.3');
    expect(body.instances).toEqual([
      {
        id: first,
        quantity: '1.25',
        lot_number: 'A',
        expiration_date: '2027-03-01',
        location: { name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
      },
      {
        id: second,
        quantity: '0.05',
        lot_number: 'Z',
        expiration_date: '2029-09-09',
        location: { name: 'Room 101', pathNames: ['Room 101'] },
      },
    ]);
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value]).sort()).toEqual([
      ['instance.expiration_date', second, null, '2029-09-09'],
      ['instance.location_id', second, null, h.a.migratedLab.locationIds[0]],
      ['instance.lot_number', second, null, 'Z'],
      ['instance.quantity', second, '0.75', '0.05'],
    ]);
  });

  it('edit: null clears lot, expiry and location', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () => edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: null, expiration_date: null, location_id: null }),
      item.id,
      200,
    );
    expect(body.instances[0]).toEqual({
      id: item.instanceIds[0],
      quantity: '1.25',
      lot_number: null,
      expiration_date: null,
      location: null,
    });
  });

  it('edit without a change (empty body or same values): 200, same ETag, no history, no event', async () => {
    const item = await migratedItem();
    const before = await getItemJson(h, h.a.admin.token, item.id);
    for (const payload of [{}, { quantity: '1.25', lot_number: 'A', location_id: h.a.migratedLab.locationIds[2] }]) {
      const res = await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, item.instanceIds[0]!), payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before.body);
      expect(res.headers.etag).toBe(before.etag);
    }
  });
});
