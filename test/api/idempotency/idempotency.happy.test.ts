// Idempotency-Key on every POST and PATCH that creates or changes something (docs/product.md §14, docs/api.md):
// the same key and body within 24 h get the first answer and the work is done once, on SQLite and PostgreSQL alike,
// for tokens and for the web application's session alike.

import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { givePassword, type Session, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';
import { adjustmentsOf, countRows, isReplay, keyed, quantityOf } from './_helpers.js';

let session: Session;
const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
  session = await signIn(h, h.a.admin.email);
});

const legacyItem = (quantity: string, name: string) => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name, quantity });
const adjust = (itemId: string, delta: string) => ({
  method: 'POST' as const,
  url: `/inventory-items/${itemId}/adjustments`,
  payload: { delta },
});

describe('a repeated adjustment subtracts once', () => {
  it('sent twice with one key by a token: 4.5 − 0.2 once, the second answer is the first', async () => {
    const item = await legacyItem('4.5', 'Ethanol twice');
    const first = await h.call(h.a.admin.token, keyed('adjust-twice', adjust(item.id, '-0.2')));
    const second = await h.call(h.a.admin.token, keyed('adjust-twice', adjust(item.id, '-0.2')));
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(isReplay(second)).toBe(true);
    expect(second.json()).toEqual(first.json());
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('4.3');
    expect(await adjustmentsOf(h, item.id)).toBe(1);
  });

  it('sent twice at the same moment (a double-click) by the signed-in browser: subtracted once', async () => {
    const item = await legacyItem('4.5', 'Ethanol double-click');
    const results = await Promise.all([
      withSession(h, session, keyed('double-click', adjust(item.id, '-0.2'))),
      withSession(h, session, keyed('double-click', adjust(item.id, '-0.2'))),
    ]);
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('4.3');
    expect(await adjustmentsOf(h, item.id)).toBe(1);
    // Once the first has answered, a retry is its replay.
    const later = await withSession(h, session, keyed('double-click', adjust(item.id, '-0.2')));
    expect(later.statusCode).toBe(200);
    expect(isReplay(later)).toBe(true);
    expect(later.json().quantity).toBe('4.3');
  });

  it('five concurrent sends with one key by a token: subtracted once', async () => {
    const item = await legacyItem('10', 'Ethanol five at once');
    await Promise.all(Array.from({ length: 5 }, () => h.call(h.a.admin.token, keyed('five-at-once', adjust(item.id, '-1')))));
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('9');
    expect(await adjustmentsOf(h, item.id)).toBe(1);
  });

  it('a new key is a new adjustment', async () => {
    const item = await legacyItem('4.5', 'Ethanol two intentions');
    await h.call(h.a.admin.token, keyed('intent-1', adjust(item.id, '-0.2')));
    await h.call(h.a.admin.token, keyed('intent-2', adjust(item.id, '-0.2')));
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('4.1');
  });
});

describe('PATCH is covered', () => {
  it('a replayed item PATCH answers the first answer and does not undo a change made in between', async () => {
    const item = await legacyItem('1', 'Acetone');
    const patch = { method: 'PATCH' as const, url: `/inventory-items/${item.id}`, payload: { vendor: 'Sigma' } };
    const first = await withSession(h, session, keyed('patch-vendor', patch));
    expect(first.statusCode, first.body).toBe(200);
    const between = await h.call(h.a.admin.token, { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'Merck' } });
    expect(between.statusCode).toBe(200);
    const retry = await withSession(h, session, keyed('patch-vendor', patch));
    expect(retry.statusCode).toBe(200);
    expect(isReplay(retry)).toBe(true);
    expect(retry.json().vendor).toBe('Sigma');
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${item.id}` })).json().vendor).toBe('Merck');
  });

  it('order request details, a location and an instance: a PATCH retried with its key is replayed', async () => {
    const order = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: h.a.legacyLab.id,
        type_id: h.a.legacyLab.typeId,
        name: 'Tips',
        vendor_name: 'Eppendorf',
        catalog_number: '1',
        price: { amount: '100', currency: 'EUR' },
        quantity: 1,
      },
    });
    const instanceId = h.a.migratedLab.instanceIds[0]!;
    const patches = [
      { method: 'PATCH' as const, url: `/order-requests/${order.json().id}`, payload: { notes: 'urgent' } },
      { method: 'PATCH' as const, url: `/locations/${h.a.migratedLab.locationIds[0]}`, payload: { name: 'Freezer −80 °C' } },
      {
        method: 'PATCH' as const,
        url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${instanceId}`,
        payload: { lot_number: 'GR3323' },
      },
    ];
    for (const [i, p] of patches.entries()) {
      const first = await h.call(h.a.admin.token, keyed(`patch-${i}`, p));
      expect(first.statusCode, `${p.url} ${first.body}`).toBe(200);
      const again = await h.call(h.a.admin.token, keyed(`patch-${i}`, p));
      expect(isReplay(again), p.url).toBe(true);
      expect(again.body).toBe(first.body);
    }
  });
});

describe('creates made twice with one key make one', () => {
  it('an item, an order request, a reorder, a location and a webhook', async () => {
    const reorderable = await addItem(h, h.a.admin.actor, {
      labId: h.a.legacyLab.id,
      name: 'Gloves',
      typeId: h.a.legacyLab.typeId,
      vendor: 'Kimtech',
      catalogNumber: 'K-1',
    });
    const cases = [
      { table: 'inventory_items', opts: { method: 'POST', url: '/inventory-items', payload: { lab_id: h.a.legacyLab.id, name: 'Once' } } },
      {
        table: 'order_requests',
        opts: {
          method: 'POST',
          url: `/inventory-items/${reorderable.id}/reorder`,
          payload: { quantity: 2, price: { amount: '500', currency: 'EUR' } },
        },
      },
      { table: 'locations', opts: { method: 'POST', url: '/locations', payload: { lab_id: h.a.migratedLab.id, name: 'Shelf once' } } },
      {
        table: 'webhooks',
        opts: {
          method: 'POST',
          url: '/webhooks',
          payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/once', is_enabled: false },
        },
      },
    ] as const;
    for (const [i, c] of cases.entries()) {
      const before = await countRows(h, c.table);
      const [one, two] = await Promise.all([
        withSession(h, session, keyed(`create-${i}`, c.opts)),
        withSession(h, session, keyed(`create-${i}`, c.opts)),
      ]);
      expect([one.statusCode, two.statusCode], `${c.opts.url} ${one.body} ${two.body}`).toContain(201);
      const retry = await withSession(h, session, keyed(`create-${i}`, c.opts));
      expect(retry.statusCode, c.opts.url).toBe(201);
      expect(isReplay(retry)).toBe(true);
      expect(await countRows(h, c.table), c.opts.url).toBe(before + 1);
    }
  });
});
