// POST /inventory-items/{id}/instances: docs/product.md §5 (add an instance to a migrated lab's item; legacy lab 409).
// Every change: the full item back, a new ETag, history, and one inventory-item.updated (§7).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectItemShape, getItemJson, memberSummary } from './_helpers.js';

const h = useHarness();

const addUrl = (itemId: string) => `/inventory-items/${itemId}/instances`;
const add = (token: string | null, itemId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: addUrl(itemId), payload: payload as any, headers });

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

describe('POST /inventory-items/{id}/instances (happy)', () => {
  it('add: 201 with the full item; the new instance is last, with its location path; quantity is the exact sum', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () =>
        add(h.a.member.token, item.id, {
          quantity: '0.1',
          lot_number: 'B',
          expiration_date: '2028-01-31',
          location_id: h.a.migratedLab.locationIds[1],
        }),
      item.id,
      201,
    );
    expect(body.quantity).toBe('2.1');
    expect(body.instances.map((i: any) => i.id).slice(0, 2)).toEqual(item.instanceIds);
    const added = body.instances[2];
    expect(added).toEqual({
      id: added.id,
      quantity: '0.1',
      lot_number: 'B',
      expiration_date: '2028-01-31',
      location: { name: 'Freezer A', pathNames: ['Room 101', 'Freezer A'] },
    });
    expect(item.instanceIds).not.toContain(added.id);
    expect(body.updated_by).toEqual(memberSummary(h.a, 'A'));
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value, r.user_id])).toEqual([
      ['instance.added', added.id, null, '0.1', h.a.member.id],
    ]);
  });

  it('add: only quantity is required; If-Match with the current ETag is honoured', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const body = await expectChange(() => add(h.a.admin.token, item.id, { quantity: '3' }, { 'if-match': etag! }), item.id, 201);
    expect(body.instances[2]).toMatchObject({ quantity: '3', lot_number: null, expiration_date: null, location: null });
    expect(body.quantity).toBe('5');
  });
});
