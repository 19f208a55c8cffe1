// PATCH /inventory-items/{id}: PRODUCT §5 (edit items; history per field) and §2 (If-Match → 412), §7
// (inventory-item.updated once per change, none when nothing changed).

import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';
import {
  addItem,
  dbState,
  eventsAfter,
  expectError,
  expectItemShape,
  expectValidation,
  getItemJson,
  memberSummary,
  revokedToken,
  UNKNOWN_ID,
} from './_helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const patch = (
  token: string | null,
  id: string,
  payload: unknown,
  headers: Record<string, string> = {},
  extra: Partial<InjectOptions> = {},
) => h.call(token, { method: 'PATCH', url: `/inventory-items/${id}`, payload: payload as any, headers, ...extra });

const changesOf = (itemId: string) =>
  h.deps.db.selectFrom('inventory_item_changes').selectAll().where('item_id', '=', itemId).orderBy('created_at').orderBy('id').execute();

async function unchanged(token: string | null, id: string, payload: unknown, headers: Record<string, string> = {}) {
  const before = await dbState(h);
  const res = await patch(token, id, payload, headers);
  expect(await dbState(h)).toEqual(before);
  return res;
}

/** A fresh legacy item, so tests do not depend on each other. */
const legacyItem = async (name = 'Editable') =>
  addItem(h, h.a.admin.id, {
    labId: h.a.legacyLab.id,
    name,
    typeId: h.a.legacyLab.typeId,
    vendor: 'Sigma',
    catalogNumber: 'S-1',
    price: '10.00',
    quantity: '4',
    lotNumber: 'L-1',
    expirationDate: '2027-01-01',
    locationName: 'Cabinet 1',
    sublocationName: 'Shelf A',
  });

describe('happy', () => {
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

describe('errors', () => {
  it('412 precondition_failed for a stale or wrong If-Match; nothing changes', async () => {
    const item = await legacyItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    expect((await patch(h.a.admin.token, item.id, { name: 'Moved on' })).statusCode).toBe(200);
    expectError(await unchanged(h.a.admin.token, item.id, { name: 'Lost update' }, { 'if-match': etag! }), 412, 'precondition_failed');
    expectError(
      await unchanged(h.a.admin.token, item.id, { name: 'Lost update' }, { 'if-match': `W/${etag}` }),
      412,
      'precondition_failed',
    );
    expectError(await unchanged(h.a.admin.token, item.id, { name: 'Lost update' }, { 'if-match': '"nope"' }), 412, 'precondition_failed');
    expect((await getItemJson(h, h.a.admin.token, item.id)).body.name).toBe('Moved on');
  });

  it('5 concurrent edits with the same If-Match: exactly one 200, the others 412; one event, one history row', async () => {
    const item = await legacyItem('Raced');
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const eventsBefore = (await dbState(h)).events;
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => patch(h.a.admin.token, item.id, { name: `Writer ${i}` }, { 'if-match': etag! })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412, 412, 412, 412]);
    const winner = results.find((r) => r.statusCode === 200)!.json();
    expect((await getItemJson(h, h.a.admin.token, item.id)).body).toEqual(winner);
    expect(await eventsAfter(h, eventsBefore)).toHaveLength(1);
    expect(await changesOf(item.id)).toHaveLength(1);
  });

  it.each([
    ['quantity', '1'],
    ['lot_number', 'L'],
    ['lot_number', null],
    ['expiration_date', '2027-01-01'],
    ['location', { name: 'A' }],
    ['sublocation', null],
  ])('migrated item: %s (%j) is 422; nothing changes', async (field, value) => {
    expectValidation(await unchanged(h.a.admin.token, h.a.migratedLab.itemId, { [field]: value }), field);
  });

  it('404 for a type of another lab or an unknown type; nothing changes', async () => {
    const item = await legacyItem();
    expectError(await unchanged(h.a.admin.token, item.id, { type_id: h.a.otherLab.typeId }), 404, 'not_found');
    expectError(await unchanged(h.a.admin.token, item.id, { type_id: UNKNOWN_ID }), 404, 'not_found');
  });

  it('422 naming the field for invalid values', async () => {
    const id = h.a.legacyLab.itemId;
    for (const [field, value] of [
      ['name', ''],
      ['name', null],
      ['name', 5],
      ['quantity', 'abc'],
      ['quantity', '-1'],
      ['quantity', null],
      ['price', '1,5'],
      ['expiration_date', '31.12.2027'],
      ['vendor_product_id', 'vp-1'],
      ['type_id', 'abc'],
      ['location', { label: 'x' }],
    ] as const) {
      expectValidation(await unchanged(h.a.admin.token, id, { [field]: value }), field === 'location' ? 'location.label' : field);
    }
  });

  it('422 naming unknown body fields (lab_id cannot move an item; instances are edited elsewhere)', async () => {
    const id = h.a.legacyLab.itemId;
    expectValidation(await unchanged(h.a.admin.token, id, { lab_id: h.a.otherLab.id }), 'lab_id');
    expectValidation(await unchanged(h.a.admin.token, id, { instances: [] }), 'instances');
    expectValidation(await unchanged(h.a.admin.token, id, { name: 'X', colour: 'red' }), 'colour');
  });

  it('422 naming id for a non-UUID id; 404 for an unknown item', async () => {
    expectValidation(await unchanged(h.a.admin.token, 'abc', { name: 'X' }), 'id');
    expectError(await unchanged(h.a.admin.token, UNKNOWN_ID, { name: 'X' }), 404, 'not_found');
  });
});

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked])
      expectError(await unchanged(token, h.a.legacyLab.itemId, { name: 'X' }), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items (also with If-Match *), which stay as they were', async () => {
    const bBefore = await getItemJson(h, h.b.admin.token, h.b.legacyLab.itemId);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) {
        expectError(await unchanged(token, id, { name: 'Hijacked' }), 404, 'not_found');
        expectError(await unchanged(token, id, { name: 'Hijacked' }, { 'if-match': '*' }), 404, 'not_found');
      }
    }
    // Nor can an org A item take an org B type.
    expectError(await unchanged(h.a.admin.token, h.a.legacyLab.itemId, { type_id: h.b.legacyLab.typeId }), 404, 'not_found');
    const bAfter = await getItemJson(h, h.b.admin.token, h.b.legacyLab.itemId);
    expect([bAfter.body, bAfter.etag]).toEqual([bBefore.body, bBefore.etag]);
  });

  it('the member gets 404 for an item of the lab they do not belong to; the outsider for every item', async () => {
    const hidden = await addItem(h, h.a.admin.id, { labId: h.a.otherLab.id, name: 'Hidden', quantity: '1' });
    expectError(await unchanged(h.a.member.token, hidden.id, { name: 'Sneaky' }), 404, 'not_found');
    for (const id of [hidden.id, h.a.legacyLab.itemId, h.a.migratedLab.itemId]) {
      expectError(await unchanged(h.a.outsider.token, id, { name: 'Sneaky' }), 404, 'not_found');
    }
  });
});
