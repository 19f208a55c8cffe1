// POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive: docs/product.md §5 (an archived instance leaves
// instances[] and the sum; its row stays). The full item back, a new ETag, history, one inventory-item.updated (§7).

import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectItemShape, getItemJson } from './_helpers.js';

const h = useHarness();

const instUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;
const archive = (token: string | null, itemId: string, instanceId: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive`, headers });

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

describe('POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive (happy)', () => {
  it('archive: the instance leaves instances[] and the sum; its row stays with archived_at; history records it', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(() => archive(h.a.member.token, item.id, first), item.id, 200);
    expect(body.quantity).toBe('0.75');
    expect(body.instances.map((i: any) => i.id)).toEqual([second]);
    const row = await h.deps.db.selectFrom('inventory_item_instances').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
    expect(row.quantity).toBe('1.25');
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value])).toEqual([['instance.archived', first, '1.25', null]]);
    // The list and the last remaining instance.
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}&per_page=100` });
    expect(list.json().find((i: any) => i.id === item.id)).toEqual(body);
    const last = await expectChange(() => archive(h.a.admin.token, item.id, second), item.id, 200);
    expect(last).toMatchObject({ quantity: '0', instances: [] });
  });

  it('archive honours If-Match with the current ETag', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    await expectChange(() => archive(h.a.admin.token, item.id, item.instanceIds[1]!, { 'if-match': etag! }), item.id, 200);
  });
});
