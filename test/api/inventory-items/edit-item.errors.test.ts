// PATCH /inventory-items/{id}: docs/product.md §5 (edit items; history per field) and §2 (If-Match → 412), §7
// (inventory-item.updated once per change, none when nothing changed).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, eventsAfter, expectError, expectValidation, getItemJson, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();
const { changesOf, unchangedBy, patchItem: patch, editableItem: legacyItem } = itemFixture(h);

const unchanged = (token: string | null, id: string, payload: unknown, headers: Record<string, string> = {}) =>
  unchangedBy(() => patch(token, id, payload, headers));

describe('PATCH /inventory-items/{id} (errors)', () => {
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
