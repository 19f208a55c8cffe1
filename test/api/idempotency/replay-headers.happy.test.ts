// A replayed answer (docs/api.md, Idempotency-Key) repeats the first answer's Location and ETag with its body, so a
// client that retried a create after a lost answer finds the resource where the first answer said, and can send
// If-Match with the version that body shows.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { isReplay, keyed } from './_helpers.js';

const h = useHarness();

const send = (key: string, opts: Parameters<typeof keyed>[1]) => h.call(h.a.admin.token, keyed(key, opts));

describe('an idempotent replay repeats the headers of the first answer', () => {
  it('POST /order-requests: the same Location, and the body of the one request made', async () => {
    const create = {
      method: 'POST' as const,
      url: '/order-requests',
      payload: {
        lab_id: h.a.legacyLab.id,
        type_id: h.a.legacyLab.typeId,
        name: 'Agarose',
        vendor_name: 'Sigma',
        catalog_number: 'A9539',
        price: { amount: '5000', currency: 'USD' },
        quantity: 1,
      },
    };
    const first = await send('order-location', create);
    const again = await send('order-location', create);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`/order-requests/${first.json().id}`);
    expect(again.statusCode).toBe(201);
    expect(isReplay(again)).toBe(true);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json()).toEqual(first.json());
  });

  it('POST /inventory-items: the same Location and ETag', async () => {
    const create = {
      method: 'POST' as const,
      url: '/inventory-items',
      payload: { lab_id: h.a.legacyLab.id, name: 'Glycerol', quantity: '2' },
    };
    const first = await send('item-location', create);
    const again = await send('item-location', create);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`/inventory-items/${first.json().id}`);
    expect(first.headers.etag).toMatch(/^"v\d+"$/);
    expect(isReplay(again)).toBe(true);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('PATCH /inventory-items/{id} replayed after another change: the ETag of the answer it repeats, not the newest', async () => {
    const item = (
      await send('item-for-patch', { method: 'POST', url: '/inventory-items', payload: { lab_id: h.a.legacyLab.id, name: 'Tween 20' } })
    ).json();
    const edit = { method: 'PATCH' as const, url: `/inventory-items/${item.id}`, payload: { vendor: 'Merck' } };
    const first = await send('item-patch', edit);
    expect(first.statusCode, first.body).toBe(200);
    await h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'Roth' } });
    const again = await send('item-patch', edit);
    expect(isReplay(again)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.json().vendor).toBe('Merck');
    const now = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${item.id}` });
    expect(now.headers.etag).not.toBe(first.headers.etag);
  });

  it('an answer that had no Location (an adjustment) replays without one, with its ETag', async () => {
    const adjust = { method: 'POST' as const, url: `/inventory-items/${h.a.legacyLab.itemId}/adjustments`, payload: { delta: '1' } };
    const first = await send('adjust-no-location', adjust);
    const again = await send('adjust-no-location', adjust);
    expect(first.statusCode, first.body).toBe(200);
    expect(isReplay(again)).toBe(true);
    expect(first.headers.location).toBeUndefined();
    expect(again.headers.location).toBeUndefined();
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.json()).toEqual(first.json());
  });
});
