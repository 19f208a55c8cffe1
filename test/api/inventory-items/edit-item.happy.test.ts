// PATCH /inventory-items/{id}: docs/product.md §5 (edit items; history per field) and §2 (If-Match → 412), §7
// (inventory-item.updated once per change, none when nothing changed).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, eventsAfter, expectItemShape, getItemJson, memberSummary } from './_helpers.js';

const h = useHarness();
const { changesOf, patchItem: patch, editableItem: legacyItem } = itemFixture(h);

describe('PATCH /inventory-items/{id} (happy)', () => {
  it('legacy item: the fields given change, the others stay; ETag moves; one history row per changed field; one inventory-item.updated', async () => {
    const item = await legacyItem();
    const before = await getItemJson(h, h.a.admin.token, item.id);
    const eventsBefore = (await dbState(h)).events;
    const res = await patch(h.a.member.token, item.id, {
      name: 'Edited',
      vendor: 'Merck',
      price: '12.50',
      quantity: '3.5',
      lot_number: 'L-2',
      expiration_date: '2028-06-30',
      location: { name: 'Cabinet 2' },
      sublocation: null,
      url: 'https://example.org/x',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectItemShape(body);
    expect(body).toEqual({
      ...before.body,
      name: 'Edited',
      vendor: 'Merck',
      price: '12.50',
      quantity: '3.5',
      lot_number: 'L-2',
      expiration_date: '2028-06-30',
      location: { name: 'Cabinet 2' },
      sublocation: null,
      url: 'https://example.org/x',
      updated_by: memberSummary(h.a, 'A'),
    });
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.etag).not.toBe(before.etag);
    const after = await getItemJson(h, h.a.admin.token, item.id);
    expect(after.body).toEqual(body);
    expect(after.etag).toBe(res.headers.etag);

    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.old_value, r.new_value]).sort()).toEqual([
      ['expiration_date', '2027-01-01', '2028-06-30'],
      ['location', 'Cabinet 1', 'Cabinet 2'],
      ['lot_number', 'L-1', 'L-2'],
      ['name', 'Editable', 'Edited'],
      ['price', '10.00', '12.50'],
      ['quantity', '4', '3.5'],
      ['sublocation', 'Shelf A', null],
      ['url', null, 'https://example.org/x'],
      ['vendor', 'Sigma', 'Merck'],
    ]);
    for (const r of rows) expect(r.user_id).toBe(h.a.member.id);

    const events = await eventsAfter(h, eventsBefore);
    expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.updated']);
    expect(events[0]!.event.data).toEqual({ inventory_item: body });
    expect(events[0]!.lab_id).toBe(h.a.legacyLab.id);
  });

  it('a field given with its current value is not a change: only the others get history rows', async () => {
    const item = await legacyItem();
    const res = await patch(h.a.admin.token, item.id, { name: item.name, vendor: 'Sigma', catalog_number: 'S-2' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await changesOf(item.id)).map((r) => [r.field, r.old_value, r.new_value])).toEqual([['catalog_number', 'S-1', 'S-2']]);
  });

  it('nothing changes (empty body, or every value the same): 200, same ETag, no history, no event', async () => {
    const item = await legacyItem();
    const before = await getItemJson(h, h.a.admin.token, item.id);
    for (const payload of [{}, { name: item.name, quantity: '4', location: { name: 'Cabinet 1' }, url: null }]) {
      const state = await dbState(h);
      const res = await patch(h.a.admin.token, item.id, payload);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before.body);
      expect(res.headers.etag).toBe(before.etag);
      expect(await dbState(h)).toEqual(state);
    }
  });

  it('type_id moves the item to another type of its lab, and null clears it', async () => {
    const item = await legacyItem();
    const t = await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: { lab_id: h.a.legacyLab.id, name: 'Solvents' } });
    expect(t.statusCode, t.body).toBe(201);
    const res = await patch(h.a.admin.token, item.id, { type_id: t.json().id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().type).toEqual({ id: t.json().id, name: 'Solvents' });
    const cleared = await patch(h.a.admin.token, item.id, { type_id: null });
    expect(cleared.json().type).toBeNull();
    expect((await changesOf(item.id)).map((r) => r.field)).toEqual(['type_id', 'type_id']);
  });

  it('If-Match with the current ETag (or *) succeeds, and the returned ETag works for the next edit', async () => {
    const item = await legacyItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const first = await patch(h.a.admin.token, item.id, { name: 'First' }, { 'if-match': etag! });
    expect(first.statusCode, first.body).toBe(200);
    const second = await patch(h.a.admin.token, item.id, { name: 'Second' }, { 'if-match': first.headers.etag as string });
    expect(second.statusCode, second.body).toBe(200);
    const star = await patch(h.a.admin.token, item.id, { name: 'Third' }, { 'if-match': '*' });
    expect(star.statusCode, star.body).toBe(200);
    expect(star.json().name).toBe('Third');
  });

  it('migrated item: non-legacy fields change; the event carries the full item with its instances', async () => {
    const eventsBefore = (await dbState(h)).events;
    const before = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    const res = await patch(h.a.admin.token, h.a.migratedLab.itemId, { name: 'Anti-GFP (rabbit)', cas_number: null, serial_number: 'X-9' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...before.body, name: 'Anti-GFP (rabbit)', serial_number: 'X-9' });
    const events = await eventsAfter(h, eventsBefore);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.data.inventory_item).toEqual(res.json());
    expect(events[0]!.event.data.inventory_item.instances).toHaveLength(2);
    expect(events[0]!.event.data.inventory_item.lab.uses_instances).toBe(true);
  });
});
