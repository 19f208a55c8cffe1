// POST /inventory-items/{id}/adjustments {delta, note?, instance_id?}: docs/product.md §5 (relative adjustments that refuse
// to go below zero), §2 (exact decimal arithmetic; never lose an update under concurrency), §7 (one event each).

import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, eventsAfter, expectError, expectItemShape, getItemJson } from './_helpers.js';

const h = useHarness();
const { unchanged, changesOf } = itemFixture(h);

const url = (itemId: string) => `/inventory-items/${itemId}/adjustments`;
const adjust = (token: string | null, itemId: string, payload: unknown) =>
  h.call(token, { method: 'POST', url: url(itemId), payload: payload as any });

const unchangedAdjust = (token: string | null, itemId: string, payload: unknown) =>
  unchanged(token, { method: 'POST', url: url(itemId), payload: payload as any });

const legacyItem = (quantity: string, name = 'Stock') => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name, quantity });
const migratedItem = (quantities: string[], name = 'Aliquots') =>
  addItem(
    h,
    h.a.admin.actor,
    { labId: h.a.migratedLab.id, name },
    quantities.map((quantity) => ({ quantity })),
  );

/** One adjustment that must succeed: 200 full item = GET, ETag = GET's, exactly one inventory-item.updated. */
async function expectAdjusted(token: string, itemId: string, payload: Record<string, unknown>): Promise<any> {
  const eventsBefore = (await dbState(h)).events;
  const res = await adjust(token, itemId, payload);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expectItemShape(body);
  const got = await getItemJson(h, h.a.admin.token, itemId);
  expect(got.body).toEqual(body);
  expect(res.headers.etag).toBe(got.etag);
  const events = await eventsAfter(h, eventsBefore);
  expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.updated']);
  expect(events[0]!.event.data).toEqual({ inventory_item: body });
  return body;
}

describe('POST /inventory-items/{id}/adjustments (happy)', () => {
  it('legacy item: "3" + "-0.5" = "2.5"; history row with old, new and the note; the ETag moves', async () => {
    const item = await legacyItem('3');
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const body = await expectAdjusted(h.a.member.token, item.id, { delta: '-0.5', note: 'used for prep' });
    expect(body.quantity).toBe('2.5');
    expect((await getItemJson(h, h.a.admin.token, item.id)).etag).not.toBe(etag);
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.old_value, r.new_value, r.note, r.instance_id, r.user_id])).toEqual([
      ['quantity', '3', '2.5', 'used for prep', null, h.a.member.id],
    ]);
  });

  it('exact decimals: "0" + "0.1" + "0.2" = "0.3", then - "0.3" = "0"; large and precise values stay exact', async () => {
    const item = await legacyItem('0');
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '0.1' })).quantity).toBe('0.1');
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '0.2' })).quantity).toBe('0.3');
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '-0.3' })).quantity).toBe('0');
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '12345678901234567890.0000000001' })).quantity).toBe(
      '12345678901234567890.0000000001',
    );
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '-0.0000000001' })).quantity).toBe('12345678901234567890');
  });

  it('down to exactly zero is allowed', async () => {
    const item = await legacyItem('1.5');
    expect((await expectAdjusted(h.a.admin.token, item.id, { delta: '-1.5' })).quantity).toBe('0');
  });

  it('migrated item: instance_id names the instance; the item quantity is the new exact sum', async () => {
    const item = await migratedItem(['0.1', '0.2']);
    const [first, second] = item.instances.map((i) => i.id) as [string, string];
    const body = await expectAdjusted(h.a.admin.token, item.id, { delta: '0.05', instance_id: second, note: 'top up' });
    expect(body.instances.map((i: any) => [i.id, i.quantity])).toEqual([
      [first, '0.1'],
      [second, '0.25'],
    ]);
    expect(body.quantity).toBe('0.35');
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value, r.note])).toEqual([
      ['instance.quantity', second, '0.2', '0.25', 'top up'],
    ]);
  });

  it('50 parallel decrements of "1" on a legacy quantity of "50": all succeed, the result is exactly "0", and the 51st is 409', async () => {
    const item = await legacyItem('50', 'Contended');
    const eventsBefore = (await dbState(h)).events;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => adjust(i % 2 ? h.a.admin.token : h.a.member.token, item.id, { delta: '-1', note: `take ${i}` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(results.map((r) => r.json().quantity).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 50 }, (_, i) => String(i)),
    );
    expect((await getItemJson(h, h.a.admin.token, item.id)).body.quantity).toBe('0');
    const rows = await changesOf(item.id);
    expect(rows).toHaveLength(50);
    expect(rows.map((r) => r.old_value).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    const events = await eventsAfter(h, eventsBefore);
    expect(events).toHaveLength(50);
    expect(events.every((e) => e.type === 'com.labstock.inventory-item.updated' && e.event.data.inventory_item.id === item.id)).toBe(true);
    // ETags are all distinct: every adjustment was its own version.
    expect(new Set(results.map((r) => r.headers.etag)).size).toBe(50);
    expectError(await unchangedAdjust(h.a.admin.token, item.id, { delta: '-1' }), 409, 'conflict');
  });

  it('the same for an instance: 50 parallel decrements of "1" on "50" leave exactly "0" there, the sibling untouched; the 51st is 409', async () => {
    const item = await migratedItem(['50', '0.5'], 'Contended aliquots');
    const [target, sibling] = item.instances.map((i) => i.id) as [string, string];
    const eventsBefore = (await dbState(h)).events;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => adjust(h.a.admin.token, item.id, { delta: '-1', instance_id: target })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const after = (await getItemJson(h, h.a.admin.token, item.id)).body;
    expect(after.instances.map((i: any) => [i.id, i.quantity])).toEqual([
      [target, '0'],
      [sibling, '0.5'],
    ]);
    expect(after.quantity).toBe('0.5');
    expect(await changesOf(item.id)).toHaveLength(50);
    expect(await eventsAfter(h, eventsBefore)).toHaveLength(50);
    expectError(await unchangedAdjust(h.a.admin.token, item.id, { delta: '-1', instance_id: target }), 409, 'conflict');
  });

  it('Idempotency-Key: a retry of the same adjustment replays the first response and is not applied twice', async () => {
    const item = await legacyItem('10', 'Retried');
    const eventsBefore = (await dbState(h)).events;
    const send = () =>
      h.call(h.a.admin.token, {
        method: 'POST',
        url: url(item.id),
        payload: { delta: '-2' },
        headers: { 'idempotency-key': 'adj-retry-1' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const second = await send();
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect((await getItemJson(h, h.a.admin.token, item.id)).body.quantity).toBe('8');
    expect(await changesOf(item.id)).toHaveLength(1);
    expect(await eventsAfter(h, eventsBefore)).toHaveLength(1);
  });

  it('Idempotency-Key: 10 concurrent sends of the same adjustment (a client retrying while the first is in flight) apply it once', async () => {
    const item = await legacyItem('10', 'Retried in flight');
    const eventsBefore = (await dbState(h)).events;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call(h.a.admin.token, {
          method: 'POST',
          url: url(item.id),
          payload: { delta: '-1' },
          headers: { 'idempotency-key': 'adj-inflight-1' },
        }),
      ),
    );
    // However the duplicates are answered, none of them may apply the adjustment again.
    expect((await getItemJson(h, h.a.admin.token, item.id)).body.quantity).toBe('9');
    expect(await changesOf(item.id)).toHaveLength(1);
    expect(await eventsAfter(h, eventsBefore)).toHaveLength(1);
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const ok = results.filter((r) => r.statusCode === 200);
    for (const r of ok) expect(r.json().quantity).toBe('9');
  });
});
