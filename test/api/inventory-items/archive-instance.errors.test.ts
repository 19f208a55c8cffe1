// POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive: docs/product.md §5 (archive an instance).

import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, expectValidation, getItemJson, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();

const instUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;
const edit = (token: string | null, itemId: string, instanceId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'PATCH', url: instUrl(itemId, instanceId), payload: payload as any, headers });
const archive = (token: string | null, itemId: string, instanceId: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive`, headers });

async function unchanged(token: string | null, opts: InjectOptions) {
  const before = await dbState(h);
  const res = await h.call(token, opts);
  expect(await dbState(h)).toEqual(before);
  return res;
}

/** A migrated item with instances "1.25" (at Shelf 2, lot A) and "0.75". */
async function migratedItem(name = 'Vials') {
  const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name }, [
    { quantity: '1.25', lotNumber: 'A', expirationDate: '2027-03-01', locationId: h.a.migratedLab.locationIds[2] },
    { quantity: '0.75' },
  ]);
  return { id: item.id, instanceIds: item.instances.map((i) => i.id) };
}

describe('POST /inventory-items/{itemId}/instances/{itemInstanceId}/archive (errors)', () => {
  it('a second archive is 404; the archived instance can be neither edited nor archived', async () => {
    const item = await migratedItem();
    const archived = item.instanceIds[0]!;
    expect((await archive(h.a.admin.token, item.id, archived)).statusCode).toBe(200);
    expectError(await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(item.id, archived)}/archive` }), 404, 'not_found');
    expectError(
      await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, archived), payload: { quantity: '9' } }),
      404,
      'not_found',
    );
  });

  it('404 for an unknown instance, an instance of another item, and an instance id on a legacy item', async () => {
    const item = await migratedItem();
    const other = await migratedItem('Other vials');
    for (const [itemId, instanceId] of [
      [item.id, UNKNOWN_ID],
      [item.id, other.instanceIds[0]!],
      [h.a.legacyLab.itemId, item.instanceIds[0]!],
    ] as const) {
      expectError(await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive` }), 404, 'not_found');
    }
  });

  it('412 precondition_failed for a stale If-Match; nothing changes', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    expect((await edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: 'moved on' })).statusCode).toBe(200);
    const headers = { 'if-match': etag! };
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(item.id, item.instanceIds[1]!)}/archive`, headers }),
      412,
      'precondition_failed',
    );
  });

  it('422 naming itemId for a non-UUID item id', async () => {
    const item = await migratedItem();
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl('abc', item.instanceIds[0]!)}/archive` }),
      'itemId',
    );
  });
});
