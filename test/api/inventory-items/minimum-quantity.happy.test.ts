// GET and PUT /inventory-items/{id}/minimum-quantity (docs/product.md §12): a decimal string or null, on its own endpoint
// and never a field of the item (docs/product.md §1); a change is an edit of the item: new ETag, history, one
// inventory-item.updated carrying the item exactly as the contract shows it.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectItemShape, getItemJson, ITEM_KEYS, keysOf } from './_helpers.js';

const h = useHarness();

const get = (token: string, id: string) => h.call(token, { method: 'GET', url: `/inventory-items/${id}/minimum-quantity` });
const put = (token: string, id: string, minimum: string | null, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'PUT', url: `/inventory-items/${id}/minimum-quantity`, payload: { minimum_quantity: minimum }, headers });

describe('minimum quantity (happy)', () => {
  it('reads null until set; the quantity beside it; the ETag of the item', async () => {
    const res = await get(h.a.member.token, h.a.legacyLab.itemId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ item_id: h.a.legacyLab.itemId, minimum_quantity: null, quantity: '3', below_minimum: false });
    expect(res.headers.etag).toBe((await getItemJson(h, h.a.member.token, h.a.legacyLab.itemId)).etag);
  });

  it('a lab member sets it: 200 with the comparison, a new ETag, a line of history and one inventory-item.updated', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Acetone', quantity: '2.5' });
    const before = await getItemJson(h, h.a.member.token, item.id);
    const eventsBefore = (await dbState(h)).events;

    const res = await put(h.a.member.token, item.id, '3', { 'if-match': before.etag! });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ item_id: item.id, minimum_quantity: '3', quantity: '2.5', below_minimum: true });
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.etag).not.toBe(before.etag);

    const after = await getItemJson(h, h.a.member.token, item.id);
    expect(after.etag).toBe(res.headers.etag);
    // The public item is unchanged but for who changed it last: no minimum_quantity field on it.
    expectItemShape(after.body);
    expect(keysOf(after.body)).toEqual(ITEM_KEYS);
    expect(after.body).toEqual({ ...before.body, updated_by: after.body.updated_by });
    expect(after.body.updated_by.id).toBe(h.a.member.id);

    const events = await eventsAfter(h, eventsBefore);
    expect(events.map((e) => e.event.type)).toEqual(['com.labstock.inventory-item.updated']);
    expect(events[0]!.event.data.inventory_item).toEqual(after.body);
    expect(JSON.stringify(events[0]!.event)).not.toContain('minimum');

    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${item.id}/history` })).json();
    expect(history.at(-1)).toMatchObject({ field: 'minimum_quantity', old_value: null, new_value: '3' });
    expect((await get(h.a.admin.token, item.id)).json()).toEqual(res.json());
  });

  it('setting the value it has changes nothing: 200, same ETag, no event, no history', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Hexane', quantity: '4' });
    const first = await put(h.a.admin.token, item.id, '1.5');
    const state = await dbState(h);
    const again = await put(h.a.admin.token, item.id, '1.5');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ item_id: item.id, minimum_quantity: '1.5', quantity: '4', below_minimum: false });
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await dbState(h)).toEqual(state);
  });

  it('null removes it; equal to the quantity is not below; decimals compare exactly', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Toluene', quantity: '0.3' });
    expect((await put(h.a.admin.token, item.id, '0.3')).json().below_minimum).toBe(false);
    expect((await put(h.a.admin.token, item.id, '0.3000000001')).json().below_minimum).toBe(true);
    const big = await put(h.a.admin.token, item.id, '12345678901234567890.1234567891');
    expect(big.json().below_minimum, big.body).toBe(true);
    const removed = await put(h.a.admin.token, item.id, null);
    expect(removed.json()).toEqual({ item_id: item.id, minimum_quantity: null, quantity: '0.3', below_minimum: false });
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${item.id}/history` })).json();
    expect(history.filter((c: any) => c.field === 'minimum_quantity').map((c: any) => [c.old_value, c.new_value])).toEqual([
      [null, '0.3'],
      ['0.3', '0.3000000001'],
      ['0.3000000001', '12345678901234567890.1234567891'],
      ['12345678901234567890.1234567891', null],
    ]);
  });

  it('in a migrated lab the quantity is the sum of the active instances, and follows them', async () => {
    const id = h.a.migratedLab.itemId;
    const res = await put(h.a.member.token, id, '0.35');
    expect(res.json()).toEqual({ item_id: id, minimum_quantity: '0.35', quantity: '0.3', below_minimum: true });
    const added = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${id}/instances`,
      payload: { quantity: '0.05' },
    });
    expect(added.statusCode).toBe(201);
    expect((await get(h.a.member.token, id)).json()).toEqual({
      item_id: id,
      minimum_quantity: '0.35',
      quantity: '0.35',
      below_minimum: false,
    });
  });

  it('keeps the minimum through other edits, and a stale If-Match on them is still 412', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Xylene', quantity: '1' });
    const set = await put(h.a.admin.token, item.id, '2');
    const edit = await h.call(h.a.admin.token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { name: 'Xylenes' },
      headers: { 'if-match': set.headers.etag as string },
    });
    expect(edit.statusCode).toBe(200);
    expect((await get(h.a.admin.token, item.id)).json().minimum_quantity).toBe('2');
    const stale = await put(h.a.admin.token, item.id, '3', { 'if-match': set.headers.etag as string });
    expect(stale.statusCode).toBe(412);
  });

  it('is in the OpenAPI document, with the item schema left as the contract has it', async () => {
    const doc = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths['/inventory-items/{id}/minimum-quantity'])).toEqual(expect.arrayContaining(['get', 'put']));
    const params = doc.paths['/inventory-items'].get.parameters.map((p: any) => p.name);
    expect(params).toEqual(
      expect.arrayContaining(['lab_id', 'page', 'per_page', 'q', 'type_id', 'location_id', 'expiring_before', 'below_minimum', 'sort']),
    );
    expect(JSON.stringify(doc.paths['/inventory-items/{id}'].get.responses['200'])).not.toContain('minimum_quantity');
  });
});
