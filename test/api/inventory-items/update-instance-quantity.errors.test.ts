import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { itRefusesOtherMediaTypes } from '../../helpers/bodies.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, archiveInstance, dbState, expectError, expectValidation, getItemJson, revokedToken, UNKNOWN_ID } from './_helpers.js';

let siblingItem: { id: string; instanceIds: string[] };
let archivedId: string;
const h = useHarness({}, async (h) => {
  const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Sibling' }, [{ quantity: '5' }, { quantity: '6' }]);
  siblingItem = { id: item.id, instanceIds: item.instances.map((i) => i.id) };
  archivedId = siblingItem.instanceIds[1]!;
  await archiveInstance(h, archivedId);
});

const itemId = () => h.a.migratedLab.itemId;
const instanceId = () => h.a.migratedLab.instanceIds[0]!;
const url = (item = itemId(), inst = instanceId()) => `/inventory-items/${item}/instances/${inst}`;

/** Sends the request and asserts both items (as the API shows them) and the whole database stayed exactly as they were. */
async function unchanged(token: string | null, opts: InjectOptions) {
  const ids = [itemId(), siblingItem.id, h.a.legacyLab.itemId];
  const before = await Promise.all(ids.map((id) => getItemJson(h, h.a.admin.token, id)));
  const state = await dbState(h);
  const res = await h.call(token, opts);
  expect(await dbState(h)).toEqual(state);
  const after = await Promise.all(ids.map((id) => getItemJson(h, h.a.admin.token, id)));
  expect(after.map((a) => [a.body, a.etag])).toEqual(before.map((b) => [b.body, b.etag]));
  return res;
}

describe('PUT /inventory-items/{itemId}/instances/{itemInstanceId} (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { method: 'PUT', url: url(), payload: { quantity: '9' } }), 401, 'unauthorized');
    }
    expectError(
      await unchanged(null, { method: 'PUT', url: url(), payload: { quantity: '9' }, headers: { authorization: 'Bearer nope' } }),
      401,
      'unauthorized',
    );
  });

  it('422 naming itemId / itemInstanceId for non-UUID ids', async () => {
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url('abc', instanceId()), payload: { quantity: '1' } }),
      'itemId',
    );
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(itemId(), 'abc'), payload: { quantity: '1' } }),
      'itemInstanceId',
    );
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(itemId(), '12345'), payload: { quantity: '1' } }),
      'itemInstanceId',
    );
  });

  it.each(['-1', '1e3', 'abc', '', '1.', '.5', ' 0.5', '0.5 ', '-0', '1/2', '0.12345678901'])(
    '422 naming quantity for "%s"',
    async (quantity) => {
      expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity } }), 'quantity');
    },
  );

  it.each([
    ['the number 1', 1],
    ['the number 0.5', 0.5],
    ['null', null],
    ['false', false],
    ['an array', ['1']],
  ])('422 naming quantity for %s (quantities are strings)', async (_label, quantity) => {
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity } as any }), 'quantity');
  });

  it('422 naming quantity when it is missing (it is required here)', async () => {
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: {} }), 'quantity');
  });

  it('422 naming unknown body fields', async () => {
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '1', lot_number: 'X' } }),
      'lot_number',
    );
    expectValidation(
      await unchanged(h.a.admin.token, {
        method: 'PUT',
        url: url(),
        payload: { quantity: '1', location_id: h.a.migratedLab.locationIds[0] },
      }),
      'location_id',
    );
  });

  it('422 for a body with only an unknown field names that field as well as the missing quantity', async () => {
    const body = expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { amount: '1' } }), 'quantity');
    expect(body.errors.map((e: any) => e.field)).toContain('amount');
  });

  it('404 for an unknown instance id', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(itemId(), UNKNOWN_ID), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('404 for an archived instance, whose row stays as it was', async () => {
    const res = await unchanged(h.a.admin.token, { method: 'PUT', url: url(siblingItem.id, archivedId), payload: { quantity: '1' } });
    expectError(res, 404, 'not_found');
    const row = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select(['quantity', 'archived_at'])
      .where('id', '=', archivedId)
      .executeTakeFirstOrThrow();
    expect(row.quantity).toBe('6');
    expect(row.archived_at).not.toBeNull();
  });

  it('404 for an instance id that belongs to another item (in either direction)', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(itemId(), siblingItem.instanceIds[0]), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(siblingItem.id, instanceId()), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(h.a.legacyLab.itemId, instanceId()), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('404 for an unknown item id, and for the item id used as the instance id', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(UNKNOWN_ID, instanceId()), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(itemId(), itemId()), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('412 precondition_failed for a stale ETag, and nothing changes', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, itemId());
    const ok = await h.call(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '0.4' }, headers: { 'if-match': etag! } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().quantity).toBe('0.6');
    for (const stale of [etag!, '"v0"', `W/${ok.headers.etag as string}`]) {
      const res = await unchanged(h.a.admin.token, {
        method: 'PUT',
        url: url(),
        payload: { quantity: '0.9' },
        headers: { 'if-match': stale },
      });
      expectError(res, 412, 'precondition_failed');
    }
    expect((await getItemJson(h, h.a.admin.token, itemId())).body.quantity).toBe('0.6');
  });

  it('the ETag of another item does not satisfy If-Match', async () => {
    const other = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const mine = await getItemJson(h, h.a.admin.token, itemId());
    expect(other.etag).not.toBe(mine.etag); // the legacy item is untouched here, the migrated one has changed
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '0.9' }, headers: { 'if-match': other.etag! } }),
      412,
      'precondition_failed',
    );
  });

  it('400 invalid_json for malformed JSON', async () => {
    for (const payload of ['{"quantity":', 'quantity: 1', '{"quantity": "1",}']) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_json',
      );
    }
  });

  itRefusesOtherMediaTypes(
    (payload, contentType) => unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': contentType } }),
    'quantity=1',
    '{"quantity":"1"}',
  );

  it('PUT /inventory-items/{id} on the same migrated item is 409 lab_uses_instances and points here', async () => {
    const body = expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${itemId()}`, payload: { quantity: '2' } }),
      409,
      'lab_uses_instances',
    );
    expect(body.message).toContain('/instances/');
  });
});
